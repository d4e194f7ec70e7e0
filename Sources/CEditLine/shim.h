#ifndef TODO_CEDITLINE_SHIM_H
#define TODO_CEDITLINE_SHIM_H
#include <stdio.h>
#include <editline/readline.h>

/*
 * Swift 6 strict concurrency rejects every mutable C global of libedit's readline emulation,
 * so the shell reaches them only through these small functions. All of them are called on the
 * thread that runs readline(), never concurrently.
 */

/*
 * Settings made once, before rl_initialize():
 * - the program name, so `todo:`-prefixed lines of ~/.editrc apply to this shell only;
 * - only blanks end the word being completed: `project:`, `+tag`, `--opt` and `1,4` stay whole
 *   (libedit's default also breaks at quotes, `=`, `@`, `$`, `<`, `>`, `;`, `|`, `&`, `{`, `(`).
 */
static inline void todo_editline_configure(void) {
  rl_readline_name = "todo";
  rl_basic_word_break_characters = " \t";
  rl_completion_append_character = ' ';
}

/* The function libedit calls on Tab with the word before the cursor. */
static inline void todo_editline_set_completion_function(rl_completion_func_t *function) {
  rl_attempted_completion_function = function;
}

/* Set from inside the completion function: 1 keeps libedit from falling back to file names. */
static inline void todo_editline_set_completion_over(int over) {
  rl_attempted_completion_over = over;
}

/* The character added after a unique completion (0 for none). */
static inline void todo_editline_set_completion_append_character(int character) {
  rl_completion_append_character = character;
}

/*
 * The whole line being edited, NUL-terminated, UTF-8. Inside the completion function libedit
 * has just refreshed it; the offsets it passes count characters (wchar_t), not bytes.
 */
static inline const char *todo_editline_line_buffer(void) {
  return rl_line_buffer;
}

/* The history's first index (it moves when stifle_history drops old entries) and its size. */
static inline int todo_editline_history_base(void) {
  return history_base;
}

static inline int todo_editline_history_length(void) {
  return history_length;
}

#endif
