/// Tab completion in bash, zsh and fish: the script `todo completions SHELL` prints, and the
/// answer of the hidden `todo __complete SHELL LINE [BREAKS]` the script runs on every Tab.
///
/// Each script hands the line up to the cursor to `todo __complete`, which splits it as the
/// interactive shell does and answers with `ShellCompletion`, so the three shells and `todo
/// shell` offer the same candidates: commands, options, attribute keys, date words after a date
/// key, `+tags`, projects, contexts, configuration keys, reports, and task ids with their titles.
/// `__complete` reads the database as it is (never creating, upgrading or writing it) and
/// prints nothing but candidates: on any problem it offers none.
///
/// Its answer: a first line saying what the script should do (`files`: complete a file name
/// itself; `nospace`: no blank after the one candidate; `-`: nothing special), then one line per
/// candidate, in the shell's own form:
/// - bash: the text for `COMPREPLY`, cut to the part of the word readline replaces: what follows
///   the word's last `COMP_WORDBREAKS` character (BREAKS), so `due:to` becomes `today`; several
///   ids show as `12  title`;
/// - zsh: `1`, `0` or `L` (a blank after it, none, or a blank and a list one per line, for ids
///   with their titles), a tab, the text, a tab, what the list shows;
/// - fish: the text, a tab, its description (a task's title).
enum CompletionScript {
  enum Shell: String, CaseIterable, Sendable {
    case bash, zsh, fish
  }

  /// The script for `todo completions SHELL`.
  static func text(for shell: Shell) -> String {
    switch shell {
    case .bash: bash
    case .zsh: zsh
    case .fish: fish
    }
  }

  /// The answer to `todo __complete SHELL LINE [BREAKS]` (BREAKS: bash's `COMP_WORDBREAKS`).
  static func reply(_ completion: ShellCompletion.Completion, shell: Shell, wordBreaks: String?) -> String {
    if completion.wantsFiles { return "files\n" }
    let candidates = completion.candidates
    var lines: [String] = []
    switch shell {
    case .bash:
      let noSpace = !candidates.isEmpty && candidates.allSatisfy { !$0.appendsSpace }
      lines.append(noSpace ? "nospace" : "-")
      // Readline replaces only the end of the word after its last word break (`:`, `=`).
      var head = ""
      if let wordBreaks, let last = completion.word.lastIndex(where: { wordBreaks.contains($0) }) {
        head = String(completion.word[...last])
      }
      let described = candidates.count > 1 && candidates.contains { $0.description != nil }
      for candidate in candidates where candidate.replacement.hasPrefix(head) {
        // bash inserts COMPREPLY as it is: a tag such as `a;b` or `$x` is escaped for it.
        let text = escapedForBash(String(candidate.replacement.dropFirst(head.count)))
        lines.append(described ? text + (candidate.description.map { "  " + $0 } ?? "") : text)
      }
    case .zsh:
      lines.append("-")
      for candidate in candidates {
        let kind = candidate.description != nil ? "L" : candidate.appendsSpace ? "1" : "0"
        lines.append(kind + "\t" + candidate.replacement + "\t" + candidate.display)
      }
    case .fish:
      lines.append("-")
      for candidate in candidates {
        lines.append(candidate.replacement + (candidate.description.map { "\t" + $0 } ?? ""))
      }
    }
    return lines.map(oneLine).joined(separator: "\n") + "\n"
  }

  /// The global options of a typed line (`--db`, `-c`), read as the parser reads them, so that
  /// completion reads the database and settings the command will; a `~/` the shell has not
  /// expanded yet is HOME.
  static func globalOptions(in line: String, home: String?) -> GlobalOptions {
    let words = Array(WordSplitter.scan(line).words.dropFirst())
    var options = (try? CommandParser(now: 0).parseGlobalOptions(words).options) ?? GlobalOptions()
    if let path = options.databasePath, path.hasPrefix("~/"), let home {
      options.databasePath = home + path.dropFirst(1)
    }
    return options
  }

  /// `text` with a backslash before every character a bash word would read specially.
  static func escapedForBash(_ text: String) -> String {
    var escaped = ""
    for character in text {
      let plain = character.isLetter || character.isNumber || "+-_.,:/@%=^".contains(character)
      if !plain { escaped.append("\\") }
      escaped.append(character)
    }
    return escaped
  }

  /// A line of the answer holds no newline (a tag or title cannot break the protocol).
  private static func oneLine(_ text: String) -> String {
    text.contains("\n") || text.contains("\r")
      ? String(text.map { $0 == "\n" || $0 == "\r" || $0 == "\r\n" ? " " : $0 }) : text
  }

  static let bash = #"""
    # bash completion for todo.
    # Load it now:     source <(todo completions bash)
    # or for good:     todo completions bash > ~/.local/share/bash-completion/completions/todo
    _todo() {
        local cur=${COMP_WORDS[COMP_CWORD]}
        local line=${COMP_LINE:0:COMP_POINT}
        local -a reply
        mapfile -t reply < <(command "${COMP_WORDS[0]}" __complete bash "$line" "$COMP_WORDBREAKS" 2>/dev/null)
        COMPREPLY=()
        (( ${#reply[@]} )) || return 0
        case ${reply[0]} in
            files)
                compopt -o filenames 2>/dev/null
                mapfile -t COMPREPLY < <(compgen -f -- "$cur")
                return 0 ;;
            nospace)
                compopt -o nospace 2>/dev/null ;;
        esac
        COMPREPLY=("${reply[@]:1}")
    }
    complete -F _todo todo

    """#

  static let zsh = #"""
    #compdef todo
    # zsh completion for todo.
    # Load it now:     source <(todo completions zsh)     (after compinit)
    # or for good:     todo completions zsh > ~/.zsh/completions/_todo
    #                  (a folder on $fpath, before compinit runs)
    _todo() {
        local line="${(j: :)${(@)words[1,CURRENT]}}"
        local -a reply
        reply=("${(@f)$(command ${words[1]} __complete zsh "$line" 2>/dev/null)}")
        [[ -n ${reply[1]} ]] || return 1
        if [[ ${reply[1]} == files ]]; then
            _files
            return
        fi
        local -a spaced spacedShown bare bareShown listed listedShown fields
        local entry
        for entry in "${(@)reply[2,-1]}"; do
            [[ -n $entry ]] || continue
            fields=("${(@ps:\t:)entry}")
            case ${fields[1]} in
                1) spaced+=("${fields[2]}"); spacedShown+=("${fields[3]}") ;;
                0) bare+=("${fields[2]}"); bareShown+=("${fields[3]}") ;;
                L) listed+=("${fields[2]}"); listedShown+=("${fields[3]}") ;;
            esac
        done
        local found=1
        (( ${#spaced} )) && compadd -d spacedShown -- "${spaced[@]}" && found=0
        (( ${#bare} )) && compadd -S '' -d bareShown -- "${bare[@]}" && found=0
        (( ${#listed} )) && compadd -l -d listedShown -- "${listed[@]}" && found=0
        return $found
    }
    if [[ ${zsh_eval_context[-1]} == loadautofunc ]]; then
        _todo "$@"
    else
        compdef _todo todo
    fi

    """#

  static let fish = #"""
    # fish completion for todo.
    # Load it now:     todo completions fish | source
    # or for good:     todo completions fish > ~/.config/fish/completions/todo.fish
    function __todo_complete
        set -l words (commandline -opc)
        set -l reply (command $words[1] __complete fish (commandline -cp | string collect) 2>/dev/null)
        or return
        if test "$reply[1]" = files
            __fish_complete_path (commandline -ct)
            return
        end
        set -e reply[1]
        printf '%s\n' $reply
    end
    complete -c todo -f -a '(__todo_complete)'

    """#
}
