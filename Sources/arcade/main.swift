import ArcadeStore
import ArcadeWeb
import CSystem

#if canImport(Glibc)
import Glibc
#endif

// Freed memory stays with the process up to 4 MB instead of going back to the kernel at once: by default glibc gave
// back the top of the heap after a busy turn and took it again, zeroed, in the next (page faults were 8% of the
// event loop's time while players' writes ran). Fixed thresholds also stop glibc raising them itself.
csys_malloc_thresholds(4 << 20, 1 << 20)

exit(CommandLineTool.main(CommandLine.arguments))
