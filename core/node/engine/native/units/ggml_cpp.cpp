// ggml/src/ggml.cpp under another name: gyp's make generator names object files by base name, so ggml.c and
// ggml.cpp would both become ggml.o and one would be lost.
#include "ggml.cpp"
