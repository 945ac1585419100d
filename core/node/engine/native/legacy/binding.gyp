# The previous engine: the same binding over the whisper.cpp of September 2024 that smart-whisper 0.8.1
# vendors. Kept only so that `npm run bench:engine` can put both builds side by side; built on request
# (scripts/build-engine.mjs --legacy), never by npm install. Drop it with smart-whisper.
{
  "variables": {
    "whisper_dir": "<!(node -p \"require('path').relative('.', require('path').join(require('path').dirname(require.resolve('smart-whisper/package.json')), 'whisper.cpp'))\")",
    "aloud_openmp%": "<!(node -p \"process.env.ALOUD_ENGINE_OPENMP === '1' ? 1 : 0\")",
    "aloud_msvc_arch%": "<!(node -p \"process.env.ALOUD_ENGINE_MSVC_ARCH || ''\")",
  },
  "targets": [
    {
      "target_name": "aloud_whisper_legacy",
      "sources": [
        "aloud_whisper_legacy.cc",
        "whisper_unity_legacy.cc",
        "<(whisper_dir)/ggml/src/ggml.c",
        "<(whisper_dir)/ggml/src/ggml-alloc.c",
        "<(whisper_dir)/ggml/src/ggml-backend.c",
        "<(whisper_dir)/ggml/src/ggml-quants.c",
        "<(whisper_dir)/ggml/src/ggml-aarch64.c",
      ],
      "include_dirs": [
        "<!(node -p \"require('node-addon-api').include_dir\")",
        "generated",
        "<(whisper_dir)/include",
        "<(whisper_dir)/ggml/include",
        "<(whisper_dir)/ggml/src",
        "<(whisper_dir)/src",
      ],
      "dependencies": ["<!(node -p \"require('node-addon-api').targets\"):node_addon_api_except"],
      "defines": ["NDEBUG", "_XOPEN_SOURCE=600", "_GNU_SOURCE", "ALOUD_HAS_BUILD_INFO"],
      "cflags": ["-std=c11", "-pthread"],
      "cflags!": ["-fno-exceptions"],
      "cflags_cc": ["-std=c++17", "-pthread"],
      "cflags_cc!": ["-fno-exceptions", "-std=gnu++17"],
      "ldflags": ["-pthread"],
      "xcode_settings": {
        "GCC_ENABLE_CPP_EXCEPTIONS": "YES",
        "CLANG_CXX_LIBRARY": "libc++",
        "MACOSX_DEPLOYMENT_TARGET": "11.0",
        "GCC_SYMBOLS_PRIVATE_EXTERN": "YES",
        "OTHER_CFLAGS": ["-O3"],
        "OTHER_LDFLAGS": ["-framework Accelerate"],
      },
      "msvs_settings": {
        "VCCLCompilerTool": { "ExceptionHandling": 1, "AdditionalOptions": ["/utf-8", "<(aloud_msvc_arch)"] },
      },
      "conditions": [
        ["aloud_openmp==1", {
          "defines": ["GGML_USE_OPENMP"],
          "cflags": ["-fopenmp"],
          "cflags_cc": ["-fopenmp"],
          "ldflags": ["-fopenmp"],
        }],
        ["OS=='mac'", {
          "defines": ["GGML_USE_ACCELERATE", "ACCELERATE_NEW_LAPACK", "ACCELERATE_LAPACK_ILP64"],
        }],
      ],
    },
  ],
}
