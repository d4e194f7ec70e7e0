import Testing

@testable import TodoUI

@Suite struct KeyDecoderTests {
  @Test func decodesTextArrowsAndSequences() {
    var decoder = KeyDecoder()
    #expect(
      decoder.feed(Array("j\u{1B}[B\u{1B}OA\u{1B}[5~\u{1B}[6~\u{1B}[3~\u{1B}[Z\r\t\u{7F}".utf8)) == [
        .character("j"), .down, .up, .pageUp, .pageDown, .delete, .backTab, .enter, .tab, .backspace,
      ])
    #expect(decoder.feed([0x0C, 0x1A]) == [.control("l"), .control("z")])
  }

  @Test func waitsForTheRestOfASequenceAndOfACharacter() {
    var decoder = KeyDecoder()
    #expect(decoder.feed([0x1B, 0x5B]) == [])
    #expect(decoder.hasPendingBytes)
    #expect(decoder.feed([0x41]) == [.up])
    let bytes = Array("日".utf8)
    #expect(decoder.feed([bytes[0]]) == [])
    #expect(decoder.feed(Array(bytes[1...])) == [.character("日")])
  }

  @Test func aLoneEscapeIsAKeyOnceNothingFollows() {
    var decoder = KeyDecoder()
    #expect(decoder.feed([0x1B]) == [])
    #expect(decoder.flushPendingEscape() == [.escape])
    #expect(!decoder.hasPendingBytes)
  }

  @Test func decodesSGRMouseReports() {
    var decoder = KeyDecoder()
    #expect(
      decoder.feed(Array("\u{1B}[<0;5;3M\u{1B}[<0;5;3m\u{1B}[<65;1;1M\u{1B}[<64;1;1M".utf8)) == [
        .mouse(MouseEvent(kind: .press(button: 0), row: 2, column: 4)), .mouse(MouseEvent(kind: .release, row: 2, column: 4)),
        .mouse(MouseEvent(kind: .wheelDown, row: 0, column: 0)), .mouse(MouseEvent(kind: .wheelUp, row: 0, column: 0)),
      ])
  }

  @Test func pastedTextIsOneKeyEvenInPieces() {
    var decoder = KeyDecoder()
    #expect(decoder.feed(Array("\u{1B}[200~q d\u{1B}[2".utf8)) == [])
    #expect(decoder.feed(Array("01~x".utf8)) == [.paste("q d"), .character("x")])
  }

  @Test func keyNamesReadBack() {
    for key: Key in [.character("j"), .character(" "), .enter, .pageDown, .control("l"), .tab, .escape, .up] {
      #expect(Key(name: key.name) == key)
    }
    #expect(Key(name: "nonsense") == nil)
  }
}
