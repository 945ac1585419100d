# Aloud's whisper.cpp binding over whisper.cpp 1.9.1 (ggml with its ggml-cpu backend), the complete source tree
# that nodejs-whisper 0.3.1 carries. Built by scripts/build-engine.mjs (npm postinstall), which sets
# CFLAGS/CXXFLAGS for the CPU's SIMD (-march=native, or a portable baseline) and writes generated/.
# whisper.cpp's CMake build is replaced by this list: the CPU backend only, statically in the addon.
# ggml's llamafile matrix kernels (tinyBLAS, GGML_USE_LLAMAFILE) are compiled in: whisper.cpp's CMake leaves them off
# (llama.cpp turns them on); on this AVX-512 machine they take a 5 s utterance with f16 weights from ~207 to ~129 ms.
{
  "variables": {
    "whisper_dir": "<!(node -p \"require('path').relative('.', require('path').join(require('path').dirname(require.resolve('nodejs-whisper/package.json')), 'cpp/whisper.cpp'))\")",
    "aloud_openmp%": "<!(node -p \"process.env.ALOUD_ENGINE_OPENMP === '1' ? 1 : 0\")",
    "aloud_msvc_arch%": "<!(node -p \"process.env.ALOUD_ENGINE_MSVC_ARCH || ''\")",
    "aloud_ggml_version%": "<!(node -p \"process.env.ALOUD_GGML_VERSION || 'unknown'\")",
    "aloud_whisper_version%": "<!(node -p \"process.env.ALOUD_WHISPER_CPP_VERSION || 'unknown'\")",
  },
  "targets": [
    {
      "target_name": "aloud_whisper",
      "sources": [
        "aloud_whisper.cc",
        "whisper_unity.cc",
        "units/ggml_c.c",
        "units/ggml_cpp.cpp",
        "<(whisper_dir)/ggml/src/ggml-alloc.c",
        "<(whisper_dir)/ggml/src/ggml-backend.cpp",
        "<(whisper_dir)/ggml/src/ggml-backend-meta.cpp",
        "<(whisper_dir)/ggml/src/ggml-backend-reg.cpp",
        "<(whisper_dir)/ggml/src/ggml-opt.cpp",
        "<(whisper_dir)/ggml/src/ggml-threading.cpp",
        "<(whisper_dir)/ggml/src/ggml-quants.c",
        "<(whisper_dir)/ggml/src/gguf.cpp",
        "units/ggml_cpu_c.c",
        "units/ggml_cpu_cpp.cpp",
        "<(whisper_dir)/ggml/src/ggml-cpu/repack.cpp",
        "<(whisper_dir)/ggml/src/ggml-cpu/hbm.cpp",
        "<(whisper_dir)/ggml/src/ggml-cpu/quants.c",
        "<(whisper_dir)/ggml/src/ggml-cpu/traits.cpp",
        "<(whisper_dir)/ggml/src/ggml-cpu/amx/amx.cpp",
        "<(whisper_dir)/ggml/src/ggml-cpu/amx/mmq.cpp",
        "<(whisper_dir)/ggml/src/ggml-cpu/binary-ops.cpp",
        "<(whisper_dir)/ggml/src/ggml-cpu/unary-ops.cpp",
        "<(whisper_dir)/ggml/src/ggml-cpu/vec.cpp",
        "<(whisper_dir)/ggml/src/ggml-cpu/ops.cpp",
        "<(whisper_dir)/ggml/src/ggml-cpu/llamafile/sgemm.cpp",
      ],
      "include_dirs": [
        "<!(node -p \"require('node-addon-api').include_dir\")",
        "generated",
        "<(whisper_dir)/include",
        "<(whisper_dir)/ggml/include",
        "<(whisper_dir)/ggml/src",
        "<(whisper_dir)/ggml/src/ggml-cpu",
        "<(whisper_dir)/src",
      ],
      "dependencies": ["<!(node -p \"require('node-addon-api').targets\"):node_addon_api_except"],
      "defines": [
        "NDEBUG",
        "_XOPEN_SOURCE=600",
        "_GNU_SOURCE",
        "ALOUD_HAS_BUILD_INFO",
        "GGML_USE_CPU",
        "GGML_USE_CPU_REPACK",
        "GGML_USE_LLAMAFILE",
        "GGML_SCHED_MAX_COPIES=4",
        "GGML_VERSION=\"<(aloud_ggml_version)\"",
        "GGML_COMMIT=\"nodejs-whisper\"",
        "WHISPER_VERSION=\"<(aloud_whisper_version)\"",
      ],
      "cflags": ["-std=c11", "-pthread", "-O3"],
      "cflags!": ["-fno-exceptions", "-O2"],
      "cflags_cc": ["-std=c++17", "-pthread", "-O3"],
      "cflags_cc!": ["-fno-exceptions", "-std=gnu++17", "-O2"],
      "ldflags": ["-pthread"],
      "xcode_settings": {
        "GCC_ENABLE_CPP_EXCEPTIONS": "YES",
        "CLANG_CXX_LIBRARY": "libc++",
        "CLANG_CXX_LANGUAGE_STANDARD": "c++17",
        "MACOSX_DEPLOYMENT_TARGET": "11.0",
        "GCC_SYMBOLS_PRIVATE_EXTERN": "YES",
        "OTHER_CFLAGS": ["-O3"],
        "OTHER_LDFLAGS": ["-framework Accelerate"],
      },
      "msvs_settings": {
        "VCCLCompilerTool": { "ExceptionHandling": 1, "AdditionalOptions": ["/utf-8", "/std:c++17", "<(aloud_msvc_arch)"] },
      },
      "conditions": [
        ["target_arch=='x64' or target_arch=='ia32'", {
          "sources": [
            "<(whisper_dir)/ggml/src/ggml-cpu/arch/x86/quants.c",
            "<(whisper_dir)/ggml/src/ggml-cpu/arch/x86/repack.cpp",
          ],
        }],
        ["target_arch=='arm64'", {
          "sources": [
            "<(whisper_dir)/ggml/src/ggml-cpu/arch/arm/quants.c",
            "<(whisper_dir)/ggml/src/ggml-cpu/arch/arm/repack.cpp",
          ],
        }],
        ["target_arch!='x64' and target_arch!='ia32' and target_arch!='arm64'", {
          "defines": ["GGML_CPU_GENERIC"],
        }],
        ["aloud_openmp==1", {
          "defines": ["GGML_USE_OPENMP"],
          "cflags": ["-fopenmp"],
          "cflags_cc": ["-fopenmp"],
          "ldflags": ["-fopenmp"],
        }],
        ["OS=='mac'", {
          "defines": ["GGML_USE_ACCELERATE", "ACCELERATE_NEW_LAPACK", "ACCELERATE_LAPACK_ILP64", "_DARWIN_C_SOURCE"],
        }],
        ["OS=='win'", {
          "defines": ["_CRT_SECURE_NO_WARNINGS", "_DISABLE_CONSTEXPR_MUTEX_CONSTRUCTOR"],
        }],
      ],
    },
  ],
}
