#if canImport(Glibc)
import Glibc
#endif

/// A buffered byte sink for stdout, stderr or memory: the only way the CLI writes output.
///
/// Output goes through one 64 KiB buffer, so a 10k-row list costs a handful of `write(2)`
/// calls instead of one per line. A write error (typically `EPIPE` in `todo list | head`) is
/// not fatal: the stream remembers it in `failed`, keeps `errorNumber`, and silently drops all
/// further output, so the command finishes its transaction and exits normally.
///
/// ```swift
/// OutputStream.ignoreBrokenPipe()
/// let out = OutputStream.standardOutput()
/// out.write("hello\n")
/// out.flush()
/// ```
///
/// Not `Sendable`: one stream belongs to one thread (the command that renders into it).
final class OutputStream {
  /// Where flushed bytes end up.
  private enum Destination {
    case fileDescriptor(Int32)
    case memory
  }

  /// The buffer size: large enough that a typical listing is a single `write(2)`.
  static let bufferCapacity = 64 * 1024

  private let destination: Destination
  private let buffer: UnsafeMutableRawBufferPointer
  private var bufferedCount = 0
  private var collected: [UInt8] = []

  /// Whether a write has failed; once set, every later write is dropped.
  private(set) var failed = false
  /// The `errno` of the failed write, or 0.
  private(set) var errorNumber: Int32 = 0

  /// Creates a stream that writes to `fileDescriptor` (which it does not own or close).
  init(fileDescriptor: Int32) {
    self.destination = .fileDescriptor(fileDescriptor)
    self.buffer = .allocate(byteCount: Self.bufferCapacity, alignment: 1)
  }

  private init(destination: Destination) {
    self.destination = destination
    self.buffer = .allocate(byteCount: Self.bufferCapacity, alignment: 1)
  }

  deinit {
    flush()
    buffer.deallocate()
  }

  /// A stream on the process's standard output.
  static func standardOutput() -> OutputStream { OutputStream(fileDescriptor: STDOUT_FILENO) }

  /// A stream on the process's standard error.
  static func standardError() -> OutputStream { OutputStream(fileDescriptor: STDERR_FILENO) }

  /// A stream that collects everything in memory, for tests; read it back with `collectedText`.
  static func memory() -> OutputStream { OutputStream(destination: .memory) }

  /// Makes a closed reader surface as `EPIPE` from `write(2)` instead of killing the process.
  ///
  /// Call once at startup, before any output. Without it, `todo list | head` would die from
  /// SIGPIPE in the middle of a write.
  static func ignoreBrokenPipe() {
    _ = signal(SIGPIPE, SIG_IGN)
  }

  /// Everything written so far to a memory stream (after flushing), decoded as UTF-8.
  ///
  /// Empty for file-descriptor streams.
  var collectedText: String {
    flush()
    return String(decoding: collected, as: UTF8.self)
  }

  /// Everything written to a memory stream since the last call (after flushing), which is then
  /// forgotten; for tests that look at one command's output at a time.
  func takeText() -> String {
    defer { collected = [] }
    return collectedText
  }

  /// Everything written so far to a memory stream (after flushing), as bytes.
  var collectedBytes: [UInt8] {
    flush()
    return collected
  }

  /// Appends the UTF-8 encoding of `text`.
  func write(_ text: String) {
    guard !failed else { return }
    let handled = text.utf8.withContiguousStorageIfAvailable { utf8 in
      append(UnsafeRawBufferPointer(utf8))
      return true
    }
    if handled == true { return }
    var copy = text
    copy.withUTF8 { append(UnsafeRawBufferPointer($0)) }
  }

  /// Appends `count` copies of one ASCII byte (the padding of table cells), without a string.
  func write(repeating byte: UInt8, count: Int) {
    guard !failed, count > 0 else { return }
    var left = count
    while left > 0 && !failed {
      if bufferedCount == Self.bufferCapacity { flush() }
      let chunk = min(left, Self.bufferCapacity - bufferedCount)
      (buffer.baseAddress! + bufferedCount).initializeMemory(as: UInt8.self, repeating: byte, count: chunk)
      bufferedCount += chunk
      left -= chunk
    }
    if bufferedCount == Self.bufferCapacity { flush() }
  }

  /// Appends raw bytes (already encoded output, such as a `JSONWriter`'s).
  func write(bytes: some Sequence<UInt8>) {
    guard !failed else { return }
    let handled = bytes.withContiguousStorageIfAvailable { contiguous in
      append(UnsafeRawBufferPointer(contiguous))
      return true
    }
    if handled == true { return }
    let array = Array(bytes)
    array.withUnsafeBytes { append($0) }
  }

  /// Sends the buffered bytes to the destination.
  func flush() {
    guard bufferedCount > 0 else { return }
    let pending = UnsafeRawBufferPointer(rebasing: buffer[0..<bufferedCount])
    bufferedCount = 0
    deliver(pending)
  }

  /// Copies `bytes` into the buffer, flushing whenever it fills; a chunk larger than the buffer
  /// goes straight to the destination once the buffer is empty.
  private func append(_ bytes: UnsafeRawBufferPointer) {
    // The usual case, a cell or a line that fits: one copy.
    if bytes.count < Self.bufferCapacity - bufferedCount, let source = bytes.baseAddress {
      (buffer.baseAddress! + bufferedCount).copyMemory(from: source, byteCount: bytes.count)
      bufferedCount += bytes.count
      return
    }
    var remaining = bytes[...]
    while !remaining.isEmpty && !failed {
      let free = Self.bufferCapacity - bufferedCount
      if bufferedCount == 0 && remaining.count >= Self.bufferCapacity {
        deliver(UnsafeRawBufferPointer(rebasing: remaining))
        return
      }
      let chunk = remaining.prefix(free)
      UnsafeMutableRawBufferPointer(rebasing: buffer[bufferedCount...])
        .copyMemory(from: UnsafeRawBufferPointer(rebasing: chunk))
      bufferedCount += chunk.count
      remaining = remaining.dropFirst(chunk.count)
      if bufferedCount == Self.bufferCapacity { flush() }
    }
  }

  /// Hands bytes to the destination, retrying partial writes, `EINTR` and `EAGAIN`.
  private func deliver(_ bytes: UnsafeRawBufferPointer) {
    guard !failed, let base = bytes.baseAddress else { return }
    switch destination {
    case .memory:
      collected.append(contentsOf: bytes)
    case .fileDescriptor(let descriptor):
      var offset = 0
      while offset < bytes.count {
        let written = Glibc.write(descriptor, base + offset, bytes.count - offset)
        if written > 0 {
          offset += written
        } else if written < 0 && errno == EINTR {
          continue
        } else if written < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
          // A non-blocking descriptor inherited from the parent: wait until it drains.
          var poller = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
          _ = poll(&poller, 1, -1)
        } else {
          failed = true
          errorNumber = written < 0 ? errno : EIO
          return
        }
      }
    }
  }
}

extension OutputStream: TextOutputStream {}

/// A stream holds an unsynchronised buffer: it must stay on the thread that created it.
@available(*, unavailable)
extension OutputStream: Sendable {}
