// ggml/src/ggml.c under its own name. gyp's make generator compiles each object from a pattern rule per
// extension (%.cc, %.cpp, %.c, in an order that changes from run to run), so listing ggml.c itself, next to
// ggml.cpp, let make build ggml.o from ggml.cpp in about half the builds: ggml.c's code was then missing and
// ggml.cpp's linked twice. Both files are compiled through a wrapper of their own (see ggml_cpp.cpp).
#include "ggml.c"
