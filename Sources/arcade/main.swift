import ArcadeApp
import CSystem

#if canImport(Glibc)
import Glibc
#endif

// Freed memory stays with the process up to 1 MB instead of going back to the kernel at once: by default glibc gave
// back the top of the heap after a busy turn and took it again, zeroed, in the next (page faults were 8% of the
// event loop's time while players' writes ran). Fixed thresholds also stop glibc raising them itself. 4 MB kept the
// peak resident size over the bench's 30 MB (30.1–30.5 MB against 28 before it).
csys_malloc_thresholds(1 << 20, 1 << 20)

exit(CommandLineTool.main(CommandLine.arguments))
