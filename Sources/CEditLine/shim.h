#ifndef TODO_CEDITLINE_SHIM_H
#define TODO_CEDITLINE_SHIM_H
#include <stdio.h>
#include <editline/readline.h>
#endif
