// ggml/src/ggml-cpu/ggml-cpu.cpp under another name (ggml-cpu.c would share its object file name; see ggml_cpp.cpp).
#include "ggml-cpu.cpp"
