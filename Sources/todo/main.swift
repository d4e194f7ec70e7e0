import TodoCLI

#if canImport(Glibc)
import Glibc
#endif

exit(TodoCommandLine.main())
