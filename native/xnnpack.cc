// XNNPACK's delegate with options, and its weights cache, through the C functions the presets' library
// exports but the Java presets do not map. TfLiteXNNPackDelegateOptions comes with no header on any
// registry and has changed between releases, so the fields this file writes are declared per release from
// that release's tensorflow/lite/delegates/xnnpack/xnnpack_delegate.h and picked by TfLiteVersion(); every
// other field keeps the release's own default. Where the release exports TfLiteXNNPackDelegateGetFlags
// (every release here but 2.12), each delegate is checked to have taken the flags it was given.
#include <jni.h>

#include <cstdint>
#include <cstdio>
#include <cstring>

#include "tensorflow/lite/core/c/common.h"

namespace {

// The options are returned by value. Every release's struct is larger than 16 bytes, so both ABIs return it
// through memory the caller provides (x86-64: %rdi, AArch64: x8): declaring the return type as this larger
// buffer lets the release write its own struct, whatever its size, without our knowing that size.
struct OptionsBuffer {
  alignas(16) unsigned char bytes[512];
};

// TFLite 2.12 to 2.19: num_threads, flags, weights_cache lead the struct; handle_variable_ops follows (24
// bytes in all), and 2.18 and 2.19 add weight_cache_file_path (32 bytes). The flags QS8 0x1, QU8 0x2 and
// FORCE_FP16 0x4 are in every release; the default options' flags are 0 up to 2.19.
struct OptionsUpTo2_19 {
  int32_t num_threads;
  uint32_t flags;
  void* weights_cache;
};

// TFLite 2.20: runtime_flags (XNNPACK's own) comes between num_threads and flags; handle_variable_ops,
// weight_cache_file_path, weight_cache_file_descriptor and weight_cache_provider follow (56 bytes). The
// default options' flags are QS8 | QU8.
struct Options2_20 {
  int32_t num_threads;
  uint32_t runtime_flags;
  uint32_t flags;
  void* weights_cache;
};

}  // namespace

// Weak: a release whose library lacks one still loads the native layer (and links with --no-undefined);
// the functions below refuse, naming what is missing, instead of the process dying at the call. 2.12 has
// every one but TfLiteXNNPackDelegateGetFlags, which only the check of the flags needs.
extern "C" {
const char* TfLiteVersion(void);
#pragma weak TfLiteXNNPackDelegateOptionsDefault
#pragma weak TfLiteXNNPackDelegateCreate
#pragma weak TfLiteXNNPackDelegateDelete
#pragma weak TfLiteXNNPackDelegateGetFlags
#pragma weak TfLiteXNNPackDelegateWeightsCacheCreate
#pragma weak TfLiteXNNPackDelegateWeightsCacheFinalizeSoft
#pragma weak TfLiteXNNPackDelegateWeightsCacheFinalizeHard
#pragma weak TfLiteXNNPackDelegateWeightsCacheDelete
OptionsBuffer TfLiteXNNPackDelegateOptionsDefault(void);
TfLiteDelegate* TfLiteXNNPackDelegateCreate(const void* options);
void TfLiteXNNPackDelegateDelete(TfLiteDelegate* delegate);
int TfLiteXNNPackDelegateGetFlags(TfLiteDelegate* delegate);
void* TfLiteXNNPackDelegateWeightsCacheCreate(void);
bool TfLiteXNNPackDelegateWeightsCacheFinalizeSoft(void* cache);
bool TfLiteXNNPackDelegateWeightsCacheFinalizeHard(void* cache);
void TfLiteXNNPackDelegateWeightsCacheDelete(void* cache);
}

namespace {

void throw_state(JNIEnv* env, const char* message) {
  env->ThrowNew(env->FindClass("java/lang/IllegalStateException"), message);
}

// "... (TFLite 2.12.0)": every refusal names the release it comes from.
void throw_for_release(JNIEnv* env, const char* message) {
  char text[512];
  std::snprintf(text, sizeof text, "%s (TFLite %s)", message, TfLiteVersion());
  throw_state(env, text);
}

bool exported(JNIEnv* env) {
  if (TfLiteXNNPackDelegateOptionsDefault && TfLiteXNNPackDelegateCreate && TfLiteXNNPackDelegateDelete &&
      TfLiteXNNPackDelegateWeightsCacheCreate && TfLiteXNNPackDelegateWeightsCacheFinalizeSoft &&
      TfLiteXNNPackDelegateWeightsCacheFinalizeHard && TfLiteXNNPackDelegateWeightsCacheDelete) {
    return true;
  }
  throw_for_release(env, "this TFLite library does not export every XNNPACK function the options need "
                         "(TfLiteXNNPackDelegateOptionsDefault, ...Create, ...Delete, ...WeightsCache*)");
  return false;
}

enum class Layout { kUnknown, kUpTo2_19, k2_20 };

// The layout of the running release, by TfLiteVersion() ("2.12.0" -> 2.12 to 2.19).
Layout layout() {
  int major = 0, minor = 0;
  const char* version = TfLiteVersion();
  if (version == nullptr || std::sscanf(version, "%d.%d", &major, &minor) != 2 || major != 2) {
    return Layout::kUnknown;
  }
  if (minor >= 12 && minor <= 19) return Layout::kUpTo2_19;
  if (minor == 20) return Layout::k2_20;
  return Layout::kUnknown;
}

bool known(JNIEnv* env, Layout layout) {
  if (layout != Layout::kUnknown) return true;
  throw_for_release(env, "no TfLiteXNNPackDelegateOptions layout is declared for this TFLite release "
                         "(native/xnnpack.cc knows 2.12 to 2.20)");
  return false;
}

template <typename Options>
void set(OptionsBuffer& buffer, jint threads, jint flags, void* cache) {
  Options options;
  std::memcpy(&options, buffer.bytes, sizeof options);
  options.num_threads = threads;
  options.flags = static_cast<uint32_t>(flags);
  options.weights_cache = cache;
  std::memcpy(buffer.bytes, &options, sizeof options);
}

template <typename Options>
jint flags_of(const OptionsBuffer& buffer) {
  Options options;
  std::memcpy(&options, buffer.bytes, sizeof options);
  return static_cast<jint>(options.flags);
}

}  // namespace

extern "C" JNIEXPORT jlong JNICALL
Java_dev_tflitearena_nativelayer_XnnpackFunctions_create(JNIEnv* env, jclass, jint threads, jint flags,
                                                         jlong cache) {
  Layout release = layout();
  if (!exported(env) || !known(env, release)) return 0;
  OptionsBuffer buffer = TfLiteXNNPackDelegateOptionsDefault();
  void* weights_cache = reinterpret_cast<void*>(static_cast<intptr_t>(cache));
  if (release == Layout::kUpTo2_19) {
    set<OptionsUpTo2_19>(buffer, threads, flags, weights_cache);
  } else {
    set<Options2_20>(buffer, threads, flags, weights_cache);
  }
  TfLiteDelegate* delegate = TfLiteXNNPackDelegateCreate(buffer.bytes);
  if (delegate == nullptr) {
    throw_for_release(env, "TfLiteXNNPackDelegateCreate returned no delegate");
    return 0;
  }
  if (TfLiteXNNPackDelegateGetFlags && TfLiteXNNPackDelegateGetFlags(delegate) != flags) {
    TfLiteXNNPackDelegateDelete(delegate);
    throw_for_release(env, "the XNNPACK delegate did not take the flags it was given: the options layout "
                           "declared for this TFLite release is wrong");
    return 0;
  }
  return static_cast<jlong>(reinterpret_cast<intptr_t>(delegate));
}

extern "C" JNIEXPORT jint JNICALL
Java_dev_tflitearena_nativelayer_XnnpackFunctions_defaultFlags0(JNIEnv* env, jclass) {
  Layout release = layout();
  if (!exported(env) || !known(env, release)) return 0;
  OptionsBuffer buffer = TfLiteXNNPackDelegateOptionsDefault();
  return release == Layout::kUpTo2_19 ? flags_of<OptionsUpTo2_19>(buffer) : flags_of<Options2_20>(buffer);
}

extern "C" JNIEXPORT void JNICALL
Java_dev_tflitearena_nativelayer_XnnpackFunctions_delete(JNIEnv*, jclass, jlong delegate) {
  TfLiteXNNPackDelegateDelete(reinterpret_cast<TfLiteDelegate*>(static_cast<intptr_t>(delegate)));
}

extern "C" JNIEXPORT jlong JNICALL
Java_dev_tflitearena_nativelayer_XnnpackFunctions_cacheCreate(JNIEnv* env, jclass) {
  if (!exported(env)) return 0;
  return static_cast<jlong>(reinterpret_cast<intptr_t>(TfLiteXNNPackDelegateWeightsCacheCreate()));
}

extern "C" JNIEXPORT jboolean JNICALL
Java_dev_tflitearena_nativelayer_XnnpackFunctions_cacheFinalize(JNIEnv*, jclass, jlong cache, jboolean hard) {
  void* pointer = reinterpret_cast<void*>(static_cast<intptr_t>(cache));
  return hard ? TfLiteXNNPackDelegateWeightsCacheFinalizeHard(pointer)
              : TfLiteXNNPackDelegateWeightsCacheFinalizeSoft(pointer);
}

extern "C" JNIEXPORT void JNICALL
Java_dev_tflitearena_nativelayer_XnnpackFunctions_cacheDelete(JNIEnv*, jclass, jlong cache) {
  TfLiteXNNPackDelegateWeightsCacheDelete(reinterpret_cast<void*>(static_cast<intptr_t>(cache)));
}
