#ifndef TODO_EDITLINE_LOADER_H
#define TODO_EDITLINE_LOADER_H

/*
 * libedit's readline emulation, loaded at run time (dlopen) by the interactive shell only: every
 * other command starts without mapping libedit and the three libraries it needs, which was a
 * fifth of the start-up time of `todo list`.
 *
 * Call todo_editline_load() first; every other function must only be called after it returned
 * 1. They are called on the thread that runs readline(), never concurrently.
 */

/* The function libedit calls on Tab: the word, its start and end (in characters). */
typedef char **todo_completion_function(const char *text, int start, int end);

/* Loads libedit (libedit.so.2, .so.0 or .so); 1 on success, 0 when it cannot be loaded or lacks a function. */
int todo_editline_load(void);
/* Why loading failed, for the message (dlerror's text), or "" when it did not. */
const char *todo_editline_load_error(void);

/*
 * Settings made once, before todo_editline_initialize():
 * - the program name, so `todo:`-prefixed lines of ~/.editrc apply to this shell only;
 * - only blanks end the word being completed: `project:`, `+tag`, `--opt` and `1,4` stay whole
 *   (libedit's default also breaks at quotes, `=`, `@`, `$`, `<`, `>`, `;`, `|`, `&`, `{`, `(`).
 */
void todo_editline_configure(void);
/* rl_initialize(): 0 on success. */
int todo_editline_initialize(void);

/* readline(): the line (malloc'ed, to free) or NULL for Ctrl-D / an interrupted read. */
char *todo_editline_readline(const char *prompt);

void todo_editline_set_completion_function(todo_completion_function *function);
/* Set from inside the completion function: 1 keeps libedit from falling back to file names. */
void todo_editline_set_completion_over(int over);
/* The character added after a unique completion (0 for none). */
void todo_editline_set_completion_append_character(int character);
/*
 * The whole line being edited, NUL-terminated, UTF-8. Inside the completion function libedit
 * has just refreshed it; the offsets it passes count characters (wchar_t), not bytes.
 */
const char *todo_editline_line_buffer(void);

/* History: the readline functions of the same names (status 0, or an errno). */
int todo_editline_add_history(const char *line);
void todo_editline_clear_history(void);
void todo_editline_stifle_history(int capacity);
int todo_editline_read_history(const char *path);
int todo_editline_write_history(const char *path);
/* The newest history entry, or NULL when the history is empty. */
const char *todo_editline_newest_history_line(void);

#endif
