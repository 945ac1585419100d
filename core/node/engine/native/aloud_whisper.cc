// Aloud's N-API binding to whisper.cpp 1.9.1 (the complete source tree nodejs-whisper 0.3.1 carries; see
// binding.gyp). Ours rather than a package's own binding because those crash on a failed load, cannot abort
// a running job, do not expose the system info, and allocate a fresh whisper_state for every clip (slower,
// and resident memory creeps up with the allocator's fragmentation). Transcription runs on the libuv pool;
// Silero VAD (a few hundred microseconds per 32 ms window) runs synchronously in the caller's thread.
#include <napi.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <deque>
#include <mutex>
#include <string>
#include <vector>

#include "ggml-cpu.h"
#include "whisper.h"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

#ifdef ALOUD_HAS_BUILD_INFO
#include "aloud_build_info.h"
#endif
#ifndef ALOUD_WHISPER_COMPILE_FLAGS
#define ALOUD_WHISPER_COMPILE_FLAGS "unknown"
#endif
#ifndef ALOUD_WHISPER_BINDING_VERSION
#define ALOUD_WHISPER_BINDING_VERSION "0.0.0"
#endif
#ifndef ALOUD_WHISPER_CPP_VERSION
#define ALOUD_WHISPER_CPP_VERSION "unknown"
#endif
#ifndef ALOUD_ENGINE_LEFT_OUT
#define ALOUD_ENGINE_LEFT_OUT "[]"
#endif

#include "cpu_guard.h"

// whisper_unity.cc
void aloud_whisper_reseed_sampling(struct whisper_state* state);
void aloud_whisper_use_threadpool(struct whisper_state* state, struct ggml_threadpool* pool);
int aloud_whisper_vad_window(struct whisper_vad_context* vctx);
// units/ggml_cpu_cpp.cpp
aloud_amx_check aloud_amx_status(void);
bool aloud_amx_compiled(void);

namespace {

// ---- whisper.cpp log capture: kept so a failed load can say why; echoed to stderr only on request.

std::mutex g_log_mutex;
std::deque<std::string> g_log_lines;
std::string g_log_partial;
std::atomic<bool> g_log_to_stderr{false};
constexpr size_t kLogLinesKept = 64;

void CaptureLog(ggml_log_level level, const char* text, void* /*user_data*/) {
  if (text == nullptr) return;
  if (g_log_to_stderr.load()) {
    fputs(text, stderr);
    fflush(stderr);
  }
  if (level == GGML_LOG_LEVEL_DEBUG) return;
  std::lock_guard<std::mutex> lock(g_log_mutex);
  g_log_partial += text;
  size_t newline;
  while ((newline = g_log_partial.find('\n')) != std::string::npos) {
    std::string line = g_log_partial.substr(0, newline);
    g_log_partial.erase(0, newline + 1);
    if (line.empty()) continue;
    g_log_lines.push_back(line);
    if (g_log_lines.size() > kLogLinesKept) g_log_lines.pop_front();
  }
}

size_t LogMark() {
  std::lock_guard<std::mutex> lock(g_log_mutex);
  g_log_lines.clear();
  return 0;
}

// Lines that whisper.cpp logged as errors or warnings since the last LogMark(), joined by "; ".
std::string LogProblems() {
  std::lock_guard<std::mutex> lock(g_log_mutex);
  std::string out;
  for (const auto& line : g_log_lines) {
    if (line.find("error") == std::string::npos && line.find("failed") == std::string::npos &&
        line.find("invalid") == std::string::npos && line.find("WARN") == std::string::npos &&
        line.find("unknown") == std::string::npos && line.find("mismatch") == std::string::npos) {
      continue;
    }
    if (!out.empty()) out += "; ";
    out += line;
  }
  return out;
}

// glibc keeps freed job buffers in per-thread arenas (the libuv pool has several threads), so resident memory
// would creep towards the sum of every thread's peak; give the free pages back after each job.
void ReleaseFreedMemory() {
#if defined(__GLIBC__)
  malloc_trim(0);
#endif
}

double MsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

// ---- options read from JS with type checks, so a wrong option is an error, never undefined behaviour.

int IntOption(const Napi::Object& o, const char* key, int fallback) {
  if (!o.Has(key) || o.Get(key).IsUndefined()) return fallback;
  Napi::Value v = o.Get(key);
  if (!v.IsNumber()) throw Napi::TypeError::New(o.Env(), std::string("option ") + key + " must be a number");
  return v.As<Napi::Number>().Int32Value();
}

float FloatOption(const Napi::Object& o, const char* key, float fallback) {
  if (!o.Has(key) || o.Get(key).IsUndefined()) return fallback;
  Napi::Value v = o.Get(key);
  if (!v.IsNumber()) throw Napi::TypeError::New(o.Env(), std::string("option ") + key + " must be a number");
  return v.As<Napi::Number>().FloatValue();
}

bool BoolOption(const Napi::Object& o, const char* key, bool fallback) {
  if (!o.Has(key) || o.Get(key).IsUndefined()) return fallback;
  Napi::Value v = o.Get(key);
  if (!v.IsBoolean()) throw Napi::TypeError::New(o.Env(), std::string("option ") + key + " must be a boolean");
  return v.As<Napi::Boolean>().Value();
}

std::string StringOption(const Napi::Object& o, const char* key, const std::string& fallback) {
  if (!o.Has(key) || o.Get(key).IsUndefined() || o.Get(key).IsNull()) return fallback;
  Napi::Value v = o.Get(key);
  if (!v.IsString()) throw Napi::TypeError::New(o.Env(), std::string("option ") + key + " must be a string");
  return v.As<Napi::String>().Utf8Value();
}

// ggml's thread-pool polling level: 0 (sleep between graphs, the default here) to 100 (spin hard).
int PollOption(const Napi::Object& o) {
  const int poll = IntOption(o, "threadPoll", 0);
  if (poll < 0 || poll > 100) throw Napi::RangeError::New(o.Env(), "option threadPoll must be from 0 to 100");
  return poll;
}

Napi::Error CodedError(Napi::Env env, const char* code, const std::string& message) {
  Napi::Error error = Napi::Error::New(env, message);
  error.Set("code", Napi::String::New(env, code));
  return error;
}

struct TokenOut {
  int64_t t0_cs;
  int64_t t1_cs;
  float p;
  int id;
  std::string text;
};

struct SegmentOut {
  int64_t t0_cs;
  int64_t t1_cs;
  std::string text;
  std::vector<TokenOut> tokens;
};

class WhisperModel;

struct Constructors {
  Napi::FunctionReference model;
  Napi::FunctionReference vad;
};

// One model loaded per instance, one whisper_state reused by every job, at most one job at a time.
class WhisperModel : public Napi::ObjectWrap<WhisperModel> {
 public:
  static Napi::Function Define(Napi::Env env);
  explicit WhisperModel(const Napi::CallbackInfo& info);
  ~WhisperModel() override { Release(); }

  whisper_context* context = nullptr;
  whisper_state* state = nullptr;
  std::atomic<bool> abort_requested{false};
  bool busy = false;
  bool flash_attn = false;
  ggml_threadpool* pool = nullptr;
  int pool_threads = 0;
  int pool_poll = -1;

  // The state's compute threads: one pool kept across jobs, rebuilt only when the thread count or polling
  // changes. poll 0 = workers sleep on a condition variable between graphs (never spin against other work).
  void UsePool(int n_threads, int poll) {
    if (pool != nullptr && pool_threads == n_threads && pool_poll == poll) return;
    aloud_whisper_use_threadpool(state, nullptr);
    if (pool != nullptr) ggml_threadpool_free(pool);
    ggml_threadpool_params params = ggml_threadpool_params_default(n_threads);
    params.poll = static_cast<uint32_t>(poll);
    pool = ggml_threadpool_new(&params);
    pool_threads = pool == nullptr ? 0 : n_threads;
    pool_poll = poll;
    aloud_whisper_use_threadpool(state, pool);
  }

  void Release() {
    if (state != nullptr) {
      aloud_whisper_use_threadpool(state, nullptr);
      whisper_free_state(state);
    }
    if (pool != nullptr) ggml_threadpool_free(pool);
    if (context != nullptr) whisper_free(context);
    state = nullptr;
    pool = nullptr;
    context = nullptr;
  }

 private:
  Napi::Value Transcribe(const Napi::CallbackInfo& info);
  Napi::Value Encode(const Napi::CallbackInfo& info);
  Napi::Value Abort(const Napi::CallbackInfo& info);
  Napi::Value Free(const Napi::CallbackInfo& info);
  Napi::Value Info(const Napi::CallbackInfo& info);
  Napi::Value GetBusy(const Napi::CallbackInfo& info);
  void RequireIdle(Napi::Env env);
};

bool AbortRequested(void* data) {
  return static_cast<WhisperModel*>(data)->abort_requested.load();
}

bool EncoderMayBegin(whisper_context*, whisper_state*, void* data) {
  return !static_cast<WhisperModel*>(data)->abort_requested.load();
}

// Completion that survives a terminated worker thread: when its environment is shutting down, JavaScript
// cannot run, so the job settles its native state and answers nobody (node-addon-api would otherwise throw
// from the completion callback and abort the whole process).
class JobWorker : public Napi::AsyncWorker {
 public:
  explicit JobWorker(Napi::Env env) : Napi::AsyncWorker(env), deferred_(Napi::Promise::Deferred::New(env)) {}
  Napi::Promise Promise() { return deferred_.Promise(); }

  void OnWorkComplete(Napi::Env env, napi_status status) override {
    Settle();
    if (status != napi_cancelled) {
      napi_handle_scope scope = nullptr;
      if (napi_open_handle_scope(env, &scope) == napi_ok) {
        try {
          if (failure_.empty()) {
            Answer(env);
          } else {
            deferred_.Reject(CodedError(env, failure_code_, failure_).Value());
          }
        } catch (...) {
          // the environment is going away; there is no one left to answer
        }
        napi_close_handle_scope(env, scope);
      }
    }
    Destroy();
  }

 protected:
  // Native bookkeeping after the job, run whether or not JavaScript can run.
  virtual void Settle() {}
  virtual void Answer(Napi::Env env) = 0;
  void Fail(const char* code, const std::string& message) {
    failure_code_ = code;
    failure_ = message;
  }

  Napi::Promise::Deferred deferred_;

 private:
  const char* failure_code_ = "failed";
  std::string failure_;
};

class LoadWorker : public JobWorker {
 public:
  LoadWorker(Napi::Env env, std::string path, bool flash_attn)
      : JobWorker(env), path_(std::move(path)), flash_attn_(flash_attn) {}

  void Execute() override {
    LogMark();
    auto start = std::chrono::steady_clock::now();
    whisper_context_params params = whisper_context_default_params();
    params.use_gpu = false;
    params.flash_attn = flash_attn_;
    context_ = whisper_init_from_file_with_params_no_state(path_.c_str(), params);
    if (context_ == nullptr) {
      std::string reason = LogProblems();
      Fail("model_load_failed", "whisper.cpp could not load " + path_ + ": " +
                                    (reason.empty() ? "not a whisper.cpp ggml model, or truncated" : reason));
      return;
    }
    state_ = whisper_init_state(context_);
    if (state_ == nullptr) {
      Fail("model_load_failed", "whisper.cpp could not allocate the decoding state for " + path_ + ". " + LogProblems());
      whisper_free(context_);
      context_ = nullptr;
      return;
    }
    load_ms_ = MsSince(start);
  }

 protected:
  void Answer(Napi::Env env) override {
    Napi::Object model = env.GetInstanceData<Constructors>()->model.New({});
    WhisperModel* unwrapped = WhisperModel::Unwrap(model);
    unwrapped->context = context_;
    unwrapped->state = state_;
    unwrapped->flash_attn = flash_attn_;
    context_ = nullptr;
    state_ = nullptr;
    model.Set("loadMs", Napi::Number::New(env, load_ms_));
    deferred_.Resolve(model);
  }

 public:
  ~LoadWorker() override {
    // loaded but never handed to JavaScript (the environment went away): free it here
    if (state_ != nullptr) whisper_free_state(state_);
    if (context_ != nullptr) whisper_free(context_);
  }

 private:
  std::string path_;
  bool flash_attn_;
  whisper_context* context_ = nullptr;
  whisper_state* state_ = nullptr;
  double load_ms_ = 0;
};

class TranscribeWorker : public JobWorker {
 public:
  TranscribeWorker(Napi::Env env, WhisperModel* model, Napi::Object model_object, std::vector<float> pcm,
                   whisper_full_params params, std::string initial_prompt, std::string language, int poll)
      : JobWorker(env), model_(model), poll_(poll),
        pcm_(std::move(pcm)), params_(params), initial_prompt_(std::move(initial_prompt)),
        language_(std::move(language)) {
    model_ref_ = Napi::Persistent(model_object);
  }

  void Execute() override {
    auto start = std::chrono::steady_clock::now();
    params_.initial_prompt = initial_prompt_.empty() ? nullptr : initial_prompt_.c_str();
    params_.language = language_.c_str();
    params_.abort_callback = AbortRequested;
    params_.abort_callback_user_data = model_;
    params_.encoder_begin_callback = EncoderMayBegin;
    params_.encoder_begin_callback_user_data = model_;
    whisper_context* ctx = model_->context;
    if (model_->state == nullptr) model_->state = whisper_init_state(ctx);
    if (model_->state == nullptr) {
      Fail("transcribe_failed", "whisper.cpp could not allocate its decoding state (out of memory?)");
      return;
    }
    whisper_state* state = model_->state;
    model_->UsePool(params_.n_threads, poll_);
    aloud_whisper_reseed_sampling(state);
    status_ = whisper_full_with_state(ctx, state, params_, pcm_.data(), static_cast<int>(pcm_.size()));
    total_ms_ = MsSince(start);
    if (model_->abort_requested.load()) {
      Fail("aborted", "transcription aborted");
      return;
    }
    if (status_ != 0) {
      Fail("transcribe_failed", "whisper.cpp failed to transcribe (whisper_full returned " + std::to_string(status_) + ")");
      return;
    }
    const whisper_token eot = whisper_token_eot(ctx);
    const int n_segments = whisper_full_n_segments_from_state(state);
    segments_.reserve(n_segments);
    for (int i = 0; i < n_segments; i++) {
      SegmentOut segment;
      segment.t0_cs = whisper_full_get_segment_t0_from_state(state, i);
      segment.t1_cs = whisper_full_get_segment_t1_from_state(state, i);
      const char* text = whisper_full_get_segment_text_from_state(state, i);
      segment.text = text == nullptr ? "" : text;
      if (params_.token_timestamps) {
        const int n_tokens = whisper_full_n_tokens_from_state(state, i);
        for (int j = 0; j < n_tokens; j++) {
          whisper_token_data data = whisper_full_get_token_data_from_state(state, i, j);
          if (data.id >= eot) continue;  // special and timestamp tokens are not words
          const char* token_text = whisper_full_get_token_text_from_state(ctx, state, i, j);
          segment.tokens.push_back({data.t0, data.t1, data.p, data.id, token_text == nullptr ? "" : token_text});
        }
      }
      segments_.push_back(std::move(segment));
    }
  }

  void Settle() override {
    model_->busy = false;
    model_->abort_requested.store(false);
    ReleaseFreedMemory();
  }

  void Answer(Napi::Env env) override {
    model_ref_.Reset();
    Napi::Array segments = Napi::Array::New(env, segments_.size());
    for (size_t i = 0; i < segments_.size(); i++) {
      const SegmentOut& s = segments_[i];
      Napi::Object segment = Napi::Object::New(env);
      segment.Set("t0_ms", Napi::Number::New(env, static_cast<double>(s.t0_cs) * 10));
      segment.Set("t1_ms", Napi::Number::New(env, static_cast<double>(s.t1_cs) * 10));
      segment.Set("text", Napi::String::New(env, s.text));
      if (params_.token_timestamps) {
        Napi::Array tokens = Napi::Array::New(env, s.tokens.size());
        for (size_t j = 0; j < s.tokens.size(); j++) {
          const TokenOut& t = s.tokens[j];
          Napi::Object token = Napi::Object::New(env);
          token.Set("t0_ms", Napi::Number::New(env, static_cast<double>(t.t0_cs) * 10));
          token.Set("t1_ms", Napi::Number::New(env, static_cast<double>(t.t1_cs) * 10));
          token.Set("text", Napi::String::New(env, t.text));
          token.Set("p", Napi::Number::New(env, t.p));
          tokens.Set(j, token);
        }
        segment.Set("tokens", tokens);
      }
      segments.Set(i, segment);
    }
    Napi::Object result = Napi::Object::New(env);
    result.Set("segments", segments);
    result.Set("totalMs", Napi::Number::New(env, total_ms_));
    deferred_.Resolve(result);
  }

 private:
  WhisperModel* model_;
  int poll_;
  Napi::ObjectReference model_ref_;  // keeps the model alive (not collected) while the job runs
  std::vector<float> pcm_;
  whisper_full_params params_;
  std::string initial_prompt_;
  std::string language_;
  int status_ = 0;
  double total_ms_ = 0;
  std::vector<SegmentOut> segments_;
};

// Mel spectrogram and encoder only (whisper.cpp's own `bench` measures the same encoder pass): whisper_full
// runs until the encoder has finished, then the abort callback stops it before any decoding.
struct EncodeClock {
  std::chrono::steady_clock::time_point begin;
  std::chrono::steady_clock::time_point end;
  bool began = false;
  bool ended = false;
};

bool EncodeBegins(whisper_context*, whisper_state*, void* data) {
  auto* clock = static_cast<EncodeClock*>(data);
  clock->begin = std::chrono::steady_clock::now();
  clock->began = true;
  return true;
}

bool StopAfterEncode(void* data) {
  auto* clock = static_cast<EncodeClock*>(data);
  if (clock->began && !clock->ended) {
    clock->end = std::chrono::steady_clock::now();
    clock->ended = true;
  }
  return clock->ended;
}

class EncodeWorker : public JobWorker {
 public:
  EncodeWorker(Napi::Env env, WhisperModel* model, Napi::Object model_object, std::vector<float> pcm,
               whisper_full_params params, int poll)
      : JobWorker(env), model_(model), poll_(poll), pcm_(std::move(pcm)),
        params_(params) {
    model_ref_ = Napi::Persistent(model_object);
  }

  void Execute() override {
    EncodeClock clock;
    params_.language = "en";
    params_.encoder_begin_callback = EncodeBegins;
    params_.encoder_begin_callback_user_data = &clock;
    params_.abort_callback = StopAfterEncode;
    params_.abort_callback_user_data = &clock;
    if (model_->state == nullptr) model_->state = whisper_init_state(model_->context);
    if (model_->state == nullptr) {
      Fail("transcribe_failed", "whisper.cpp could not allocate its decoding state (out of memory?)");
      return;
    }
    model_->UsePool(params_.n_threads, poll_);
    auto start = std::chrono::steady_clock::now();
    whisper_full_with_state(model_->context, model_->state, params_, pcm_.data(), static_cast<int>(pcm_.size()));
    if (!clock.ended) {
      Fail(model_->abort_requested.load() ? "aborted" : "transcribe_failed",
           model_->abort_requested.load() ? "encoding aborted" : "whisper.cpp did not run the encoder (is the audio at least 1 s long?)");
      return;
    }
    mel_ms_ = std::chrono::duration<double, std::milli>(clock.begin - start).count();
    encode_ms_ = std::chrono::duration<double, std::milli>(clock.end - clock.begin).count();
  }

  void Settle() override {
    model_->busy = false;
    model_->abort_requested.store(false);
    ReleaseFreedMemory();
  }

  void Answer(Napi::Env env) override {
    model_ref_.Reset();
    Napi::Object result = Napi::Object::New(env);
    result.Set("melMs", Napi::Number::New(env, mel_ms_));
    result.Set("encodeMs", Napi::Number::New(env, encode_ms_));
    deferred_.Resolve(result);
  }

 private:
  WhisperModel* model_;
  int poll_;
  Napi::ObjectReference model_ref_;
  std::vector<float> pcm_;
  whisper_full_params params_;
  double mel_ms_ = 0;
  double encode_ms_ = 0;
};

Napi::Function WhisperModel::Define(Napi::Env env) {
  return DefineClass(env, "WhisperModel",
                     {
                         InstanceMethod<&WhisperModel::Transcribe>("transcribe"),
                         InstanceMethod<&WhisperModel::Encode>("encode"),
                         InstanceMethod<&WhisperModel::Abort>("abort"),
                         InstanceMethod<&WhisperModel::Free>("free"),
                         InstanceMethod<&WhisperModel::Info>("info"),
                         InstanceAccessor<&WhisperModel::GetBusy>("busy"),
                     });
}

WhisperModel::WhisperModel(const Napi::CallbackInfo& info) : Napi::ObjectWrap<WhisperModel>(info) {}

void WhisperModel::RequireIdle(Napi::Env env) {
  if (context == nullptr) throw CodedError(env, "model_freed", "the model was freed");
  if (busy) throw CodedError(env, "busy", "a job is already running on this model");
}

std::vector<float> CopyPcm(const Napi::CallbackInfo& info) {
  if (info.Length() < 1 || !info[0].IsTypedArray() ||
      info[0].As<Napi::TypedArray>().TypedArrayType() != napi_float32_array) {
    throw Napi::TypeError::New(info.Env(), "pcm must be a Float32Array of 16 kHz mono samples");
  }
  Napi::Float32Array pcm = info[0].As<Napi::Float32Array>();
  return std::vector<float>(pcm.Data(), pcm.Data() + pcm.ElementLength());
}

Napi::Value WhisperModel::Transcribe(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  RequireIdle(env);
  std::vector<float> pcm = CopyPcm(info);
  Napi::Object o = info.Length() > 1 && info[1].IsObject() ? info[1].As<Napi::Object>() : Napi::Object::New(env);

  whisper_full_params params = whisper_full_default_params(WHISPER_SAMPLING_GREEDY);
  params.n_threads = IntOption(o, "threads", params.n_threads);
  params.audio_ctx = IntOption(o, "audioCtx", 0);
  params.token_timestamps = BoolOption(o, "tokenTimestamps", false);
  params.suppress_nst = BoolOption(o, "suppressNonSpeechTokens", false);
  params.suppress_blank = BoolOption(o, "suppressBlank", params.suppress_blank);
  params.temperature = FloatOption(o, "temperature", 0.0f);
  params.temperature_inc = FloatOption(o, "temperatureInc", params.temperature_inc);
  params.greedy.best_of = IntOption(o, "bestOf", params.greedy.best_of);
  params.entropy_thold = FloatOption(o, "entropyThold", params.entropy_thold);
  params.logprob_thold = FloatOption(o, "logprobThold", params.logprob_thold);
  params.max_tokens = IntOption(o, "maxTokensPerSegment", 0);
  params.no_context = true;
  params.print_progress = false;
  params.print_realtime = false;
  params.print_timestamps = false;
  params.print_special = false;
  std::string initial_prompt = StringOption(o, "initialPrompt", "");
  std::string language = StringOption(o, "language", "en");
  const int poll = PollOption(o);

  abort_requested.store(false);
  busy = true;
  auto* worker = new TranscribeWorker(env, this, info.This().As<Napi::Object>(), std::move(pcm), params,
                                      std::move(initial_prompt), std::move(language), poll);
  worker->Queue();
  return worker->Promise();
}

Napi::Value WhisperModel::Encode(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  RequireIdle(env);
  std::vector<float> pcm = CopyPcm(info);
  Napi::Object o = info.Length() > 1 && info[1].IsObject() ? info[1].As<Napi::Object>() : Napi::Object::New(env);
  whisper_full_params params = whisper_full_default_params(WHISPER_SAMPLING_GREEDY);
  params.n_threads = IntOption(o, "threads", params.n_threads);
  params.audio_ctx = IntOption(o, "audioCtx", 0);
  params.temperature_inc = 0.0f;
  params.print_progress = false;
  const int poll = PollOption(o);
  busy = true;
  auto* worker = new EncodeWorker(env, this, info.This().As<Napi::Object>(), std::move(pcm), params, poll);
  worker->Queue();
  return worker->Promise();
}

Napi::Value WhisperModel::Abort(const Napi::CallbackInfo& info) {
  if (busy) abort_requested.store(true);
  return Napi::Boolean::New(info.Env(), busy);
}

Napi::Value WhisperModel::Free(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (busy) throw CodedError(env, "busy", "cannot free the model while a job is running; abort it first");
  Release();
  return env.Undefined();
}

Napi::Value WhisperModel::Info(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (context == nullptr) throw CodedError(env, "model_freed", "the model was freed");
  Napi::Object out = Napi::Object::New(env);
  out.Set("type", Napi::String::New(env, whisper_model_type_readable(context)));
  out.Set("multilingual", Napi::Boolean::New(env, whisper_is_multilingual(context) != 0));
  out.Set("nVocab", Napi::Number::New(env, whisper_model_n_vocab(context)));
  out.Set("nAudioCtx", Napi::Number::New(env, whisper_model_n_audio_ctx(context)));
  out.Set("nAudioState", Napi::Number::New(env, whisper_model_n_audio_state(context)));
  out.Set("nAudioLayer", Napi::Number::New(env, whisper_model_n_audio_layer(context)));
  out.Set("nTextLayer", Napi::Number::New(env, whisper_model_n_text_layer(context)));
  out.Set("nMels", Napi::Number::New(env, whisper_model_n_mels(context)));
  out.Set("ftype", Napi::Number::New(env, whisper_model_ftype(context)));
  out.Set("flashAttn", Napi::Boolean::New(env, flash_attn));
  return out;
}

Napi::Value WhisperModel::GetBusy(const Napi::CallbackInfo& info) { return Napi::Boolean::New(info.Env(), busy); }

Napi::Value LoadModel(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (info.Length() < 1 || !info[0].IsString()) throw Napi::TypeError::New(env, "loadModel(path) needs a file path");
  Napi::Object o = info.Length() > 1 && info[1].IsObject() ? info[1].As<Napi::Object>() : Napi::Object::New(env);
  auto* worker = new LoadWorker(env, info[0].As<Napi::String>().Utf8Value(), BoolOption(o, "flashAttn", true));
  worker->Queue();
  return worker->Promise();
}


// ---- Silero VAD through whisper.cpp's VAD API: speech probability per 512-sample (32 ms) window.

// One VAD context; detect() is synchronous and keeps the LSTM state across calls (streaming) unless reset.
class VadModel : public Napi::ObjectWrap<VadModel> {
 public:
  static Napi::Function Define(Napi::Env env) {
    return DefineClass(env, "VadModel",
                       {
                           InstanceMethod<&VadModel::Detect>("detect"),
                           InstanceMethod<&VadModel::Reset>("reset"),
                           InstanceMethod<&VadModel::Free>("free"),
                           InstanceAccessor<&VadModel::WindowSamples>("windowSamples"),
                       });
  }
  explicit VadModel(const Napi::CallbackInfo& info) : Napi::ObjectWrap<VadModel>(info) {}
  ~VadModel() override { Release(); }

  whisper_vad_context* vad = nullptr;
  int window = 512;

  void Release() {
    if (vad != nullptr) whisper_vad_free(vad);
    vad = nullptr;
  }

 private:
  void RequireLoaded(Napi::Env env) {
    if (vad == nullptr) throw CodedError(env, "model_freed", "the VAD model was freed");
  }

  // detect(pcm: Float32Array, reset = false): Float32Array of one speech probability per window; a last
  // partial window is zero-padded (callers that stream feed whole windows).
  Napi::Value Detect(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    RequireLoaded(env);
    if (info.Length() < 1 || !info[0].IsTypedArray() ||
        info[0].As<Napi::TypedArray>().TypedArrayType() != napi_float32_array) {
      throw Napi::TypeError::New(env, "pcm must be a Float32Array of 16 kHz mono samples");
    }
    Napi::Float32Array pcm = info[0].As<Napi::Float32Array>();
    const bool reset = info.Length() > 1 && info[1].ToBoolean().Value();
    if (pcm.ElementLength() == 0) return Napi::Float32Array::New(env, 0);
    const bool ok = reset ? whisper_vad_detect_speech(vad, pcm.Data(), static_cast<int>(pcm.ElementLength()))
                          : whisper_vad_detect_speech_no_reset(vad, pcm.Data(), static_cast<int>(pcm.ElementLength()));
    if (!ok) throw CodedError(env, "vad_failed", "whisper.cpp's VAD failed on this audio. " + LogProblems());
    const int n = whisper_vad_n_probs(vad);
    Napi::Float32Array out = Napi::Float32Array::New(env, n);
    std::memcpy(out.Data(), whisper_vad_probs(vad), sizeof(float) * n);
    return out;
  }

  Napi::Value Reset(const Napi::CallbackInfo& info) {
    RequireLoaded(info.Env());
    whisper_vad_reset_state(vad);
    return info.Env().Undefined();
  }

  Napi::Value Free(const Napi::CallbackInfo& info) {
    Release();
    return info.Env().Undefined();
  }

  Napi::Value WindowSamples(const Napi::CallbackInfo& info) { return Napi::Number::New(info.Env(), window); }
};

// loadVad(path, { threads = 1 }): a Silero VAD model (ggml-silero-*.bin), loaded synchronously (about 1 MB).
Napi::Value LoadVad(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (info.Length() < 1 || !info[0].IsString()) throw Napi::TypeError::New(env, "loadVad(path) needs a file path");
  Napi::Object o = info.Length() > 1 && info[1].IsObject() ? info[1].As<Napi::Object>() : Napi::Object::New(env);
  const std::string path = info[0].As<Napi::String>().Utf8Value();
  whisper_vad_context_params params = whisper_vad_default_context_params();
  params.n_threads = IntOption(o, "threads", 1);
  params.use_gpu = false;
  LogMark();
  whisper_vad_context* vad = whisper_vad_init_from_file_with_params(path.c_str(), params);
  if (vad == nullptr) {
    std::string reason = LogProblems();
    throw CodedError(env, "model_load_failed", "whisper.cpp could not load the VAD model " + path + ": " +
                                                   (reason.empty() ? "not a Silero VAD ggml model, or truncated" : reason));
  }
  Napi::Object object = env.GetInstanceData<Constructors>()->vad.New({});
  VadModel::Unwrap(object)->vad = vad;
  VadModel::Unwrap(object)->window = aloud_whisper_vad_window(vad);
  return object;
}

Napi::Value SystemInfo(const Napi::CallbackInfo& info) {
  return Napi::String::New(info.Env(), whisper_print_system_info());
}

// cpuGuard(): what this machine lets the engine run of what the build holds ({ amx: { cpu, os_enabled, permitted,
// runs, compiled, used, reason } }); ggml's AMX kernels are used only when compiled in and `runs`.
Napi::Value CpuGuard(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const aloud_amx_check amx = aloud_amx_status();
  Napi::Object out = Napi::Object::New(env);
  Napi::Object a = Napi::Object::New(env);
  a.Set("cpu", Napi::Boolean::New(env, amx.cpu != 0));
  a.Set("os_enabled", Napi::Boolean::New(env, amx.os_enabled != 0));
  a.Set("permitted", Napi::Boolean::New(env, amx.permitted != 0));
  a.Set("runs", Napi::Boolean::New(env, amx.runs != 0));
  a.Set("compiled", Napi::Boolean::New(env, aloud_amx_compiled()));
  a.Set("used", Napi::Boolean::New(env, aloud_amx_compiled() && amx.runs != 0));
  a.Set("reason", Napi::String::New(env, amx.reason));
  out.Set("amx", a);
  return out;
}

Napi::Value SetLogToStderr(const Napi::CallbackInfo& info) {
  g_log_to_stderr.store(info.Length() > 0 && info[0].ToBoolean().Value());
  return info.Env().Undefined();
}

Napi::Object Init(Napi::Env env, Napi::Object exports) {
  whisper_log_set(CaptureLog, nullptr);
  auto* constructors = new Constructors();
  constructors->model = Napi::Persistent(WhisperModel::Define(env));
  constructors->vad = Napi::Persistent(VadModel::Define(env));
  env.SetInstanceData<Constructors>(constructors);
  exports.Set("loadModel", Napi::Function::New(env, LoadModel));
  exports.Set("systemInfo", Napi::Function::New(env, SystemInfo));
  exports.Set("setLogToStderr", Napi::Function::New(env, SetLogToStderr));
  exports.Set("bindingVersion", Napi::String::New(env, ALOUD_WHISPER_BINDING_VERSION));
  exports.Set("whisperCppVersion", Napi::String::New(env, ALOUD_WHISPER_CPP_VERSION));
  exports.Set("whisperVersion", Napi::String::New(env, whisper_version()));
  exports.Set("loadVad", Napi::Function::New(env, LoadVad));
  exports.Set("compileFlags", Napi::String::New(env, ALOUD_WHISPER_COMPILE_FLAGS));
  exports.Set("cpuGuard", Napi::Function::New(env, CpuGuard));
  // JSON: the instruction sets scripts/build-engine.mjs compiled without, and why
  exports.Set("leftOut", Napi::String::New(env, ALOUD_ENGINE_LEFT_OUT));
  return exports;
}

}  // namespace

NODE_API_MODULE(aloud_whisper, Init)
