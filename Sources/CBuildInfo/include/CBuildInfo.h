// What the build knows about itself that Swift cannot: the git commit it was built from.
#ifndef TODO_CBUILDINFO_H
#define TODO_CBUILDINFO_H

/// The abbreviated commit the program was built from ("" when unknown): see build_info.c.
const char *todo_build_commit(void);

#endif
