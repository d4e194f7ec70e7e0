#if canImport(Glibc)
import Glibc
#endif

/// The full-screen interface on a terminal: reads keys, hands them to the controller, draws
/// its state (only the rows that changed), follows resizes, stops and changes made by other
/// processes, and restores the terminal on the way out.
public final class TerminalApp {
  let terminal: TerminalDevice
  let controller: UIController
  let renderer: ScreenRenderer
  var writer: FrameWriter
  let mouse: Bool
  private var decoder = KeyDecoder()

  public init(terminal: TerminalDevice, controller: UIController, renderer: ScreenRenderer, color: Bool, mouse: Bool) {
    self.terminal = terminal
    self.controller = controller
    self.renderer = renderer
    self.writer = FrameWriter(color: color)
    self.mouse = mouse
  }

  /// Runs until `q` (or the input ends). Returns the exit status.
  public func run() -> Int32 {
    controller.size = terminal.size
    terminal.enter(mouse: mouse)
    defer { terminal.leave() }
    controller.aroundTerminalCommand = { [unowned self] body in
      terminal.leave()
      let outcome = body()
      terminal.enter(mouse: mouse)
      writer.reset()
      return outcome
    }
    controller.ask = { [unowned self] question in self.askOnScreen(question) }
    controller.load()
    controller.showDueReminders()
    var lastCheck = monotonicMilliseconds()
    var lastReminders = lastCheck
    draw()
    while !controller.wantsToQuit {
      let (bytes, ended) = terminal.read(waiting: decoder.hasPendingBytes ? 30 : 250)
      if ended { break }
      var keys = decoder.feed(bytes)
      if bytes.isEmpty && decoder.hasPendingBytes { keys += decoder.flushPendingEscape() }
      if terminal.takeResumed() {
        terminal.enter(mouse: mouse)
        writer.reset()
      }
      if terminal.takeResized() {
        controller.size = terminal.size
        writer.reset()
      }
      for key in keys {
        if key == .control("z") {
          terminal.suspend()
          terminal.enter(mouse: mouse)
          controller.size = terminal.size
          writer.reset()
          continue
        }
        if key == .control("l") { writer.reset() }
        controller.handle(key)
        if controller.wantsToQuit { break }
      }
      let now = monotonicMilliseconds()
      if now - lastCheck >= 500 {
        lastCheck = now
        _ = controller.refreshIfChanged()
      }
      // Reminders are set to the minute: a look every 15 seconds is on time.
      if now - lastReminders >= 15_000 {
        lastReminders = now
        controller.showDueReminders()
      }
      if !controller.wantsToQuit { draw() }
    }
    return 0
  }

  func draw() {
    controller.prepareFrame()
    let grid = renderer.render(controller.state, width: controller.size.width, height: controller.size.height)
    terminal.write(writer.output(for: grid))
  }

  /// Shows a command's question (a confirmation with its list of tasks) and waits for a key:
  /// `y` is yes, anything else no.
  private func askOnScreen(_ question: String) -> Bool {
    let lines = question.split(separator: "\n", omittingEmptySubsequences: false).map { [StyledText(String($0))] }
    var state = controller.state
    state.overlay = Overlay(kind: .question, title: "Confirm", lines: lines)
    state.prompt = nil
    func draw() {
      let grid = renderer.render(state, width: controller.size.width, height: controller.size.height)
      terminal.write(writer.output(for: grid))
    }
    draw()
    while true {
      let (bytes, ended) = terminal.read(waiting: decoder.hasPendingBytes ? 30 : 250)
      if ended { return false }
      var keys = decoder.feed(bytes)
      if bytes.isEmpty && decoder.hasPendingBytes { keys += decoder.flushPendingEscape() }
      // Stopped and continued, or resized, while asking: the question is drawn again.
      if terminal.takeResumed() {
        terminal.enter(mouse: mouse)
        writer.reset()
        draw()
      }
      if terminal.takeResized() {
        controller.size = terminal.size
        writer.reset()
        draw()
      }
      guard let key = keys.first(where: { if case .mouse = $0 { false } else { true } }) else { continue }
      return key == .character("y") || key == .character("Y")
    }
  }

  private func monotonicMilliseconds() -> Int64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Int64(time.tv_sec) * 1000 + Int64(time.tv_nsec) / 1_000_000
  }
}
