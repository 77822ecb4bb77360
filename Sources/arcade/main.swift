import ArcadeApp

#if canImport(Glibc)
import Glibc
#endif

exit(CommandLineTool.main(CommandLine.arguments))
