// ggml/src/ggml-cpu/ggml-cpu.c under its own name: ggml-cpu.cpp sits beside it (see ggml_c.c for why that
// makes the object file ambiguous).
#include "ggml-cpu.c"
