#include "editline_loader.h"

#include <dlfcn.h>
#include <stddef.h>

/* The functions and variables of libedit's readline emulation this shell uses. */
typedef struct {
  const char *line;
  void *data;
} todo_history_entry;

static char *(*readline_function)(const char *);
static int (*rl_initialize_function)(void);
static int (*add_history_function)(const char *);
static void (*clear_history_function)(void);
static void (*stifle_history_function)(int);
static int (*read_history_function)(const char *);
static int (*write_history_function)(const char *);
static todo_history_entry *(*history_get_function)(int);
static const char **readline_name;
static const char **basic_word_break_characters;
static int *completion_append_character;
static todo_completion_function **attempted_completion_function;
static int *attempted_completion_over;
static char **line_buffer;
static int *history_base;
static int *history_length;

static const char *load_error = "";

#define RESOLVE(variable, name)                                \
  do {                                                         \
    *(void **)(&variable) = dlsym(library, name);              \
    if (variable == NULL) {                                    \
      load_error = "libedit lacks " name;                      \
      return 0;                                                \
    }                                                          \
  } while (0)

int todo_editline_load(void) {
  static int loaded = 0;
  if (loaded) return 1;
  /* Debian and Ubuntu name it libedit.so.2, Fedora and Arch libedit.so.0. */
  static const char *const names[] = {"libedit.so.2", "libedit.so.0", "libedit.so"};
  void *library = NULL;
  for (size_t index = 0; library == NULL && index < sizeof names / sizeof names[0]; index++) {
    library = dlopen(names[index], RTLD_NOW | RTLD_LOCAL);
  }
  if (library == NULL) {
    const char *error = dlerror();
    load_error = error != NULL ? error : "libedit cannot be loaded";
    return 0;
  }
  RESOLVE(readline_function, "readline");
  RESOLVE(rl_initialize_function, "rl_initialize");
  RESOLVE(add_history_function, "add_history");
  RESOLVE(clear_history_function, "clear_history");
  RESOLVE(stifle_history_function, "stifle_history");
  RESOLVE(read_history_function, "read_history");
  RESOLVE(write_history_function, "write_history");
  RESOLVE(history_get_function, "history_get");
  RESOLVE(readline_name, "rl_readline_name");
  RESOLVE(basic_word_break_characters, "rl_basic_word_break_characters");
  RESOLVE(completion_append_character, "rl_completion_append_character");
  RESOLVE(attempted_completion_function, "rl_attempted_completion_function");
  RESOLVE(attempted_completion_over, "rl_attempted_completion_over");
  RESOLVE(line_buffer, "rl_line_buffer");
  RESOLVE(history_base, "history_base");
  RESOLVE(history_length, "history_length");
  loaded = 1;
  return 1;
}

const char *todo_editline_load_error(void) { return load_error; }

void todo_editline_configure(void) {
  *readline_name = "todo";
  *basic_word_break_characters = " \t";
  *completion_append_character = ' ';
}

int todo_editline_initialize(void) { return rl_initialize_function(); }

char *todo_editline_readline(const char *prompt) { return readline_function(prompt); }

void todo_editline_set_completion_function(todo_completion_function *function) {
  *attempted_completion_function = function;
}

void todo_editline_set_completion_over(int over) { *attempted_completion_over = over; }

void todo_editline_set_completion_append_character(int character) { *completion_append_character = character; }

const char *todo_editline_line_buffer(void) { return *line_buffer; }

int todo_editline_add_history(const char *line) { return add_history_function(line); }

void todo_editline_clear_history(void) { clear_history_function(); }

void todo_editline_stifle_history(int capacity) { stifle_history_function(capacity); }

int todo_editline_read_history(const char *path) { return read_history_function(path); }

int todo_editline_write_history(const char *path) { return write_history_function(path); }

const char *todo_editline_newest_history_line(void) {
  if (*history_length <= 0) return NULL;
  todo_history_entry *entry = history_get_function(*history_base + *history_length - 1);
  return entry != NULL ? entry->line : NULL;
}
