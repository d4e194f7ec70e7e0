import Testing

@Test func placeholderTodoCoreTests() { #expect(Bool(true)) }
