// The offsets and sizes of TFLite's structs as this library was compiled against them (TFLite's C headers
// from the build). NativeLayer compares each with the presets' own view of the release on the class path
// before any other function here is called: a struct that moved between releases is refused by name
// instead of read at the wrong place.
#include <jni.h>

#include <cstddef>
#include <utility>

#include "tensorflow/lite/core/c/common.h"

// From c_api.h, which the AAR ships without the async headers it includes.
extern "C" const char* TfLiteVersion(void);

namespace {

struct Entry {
  const char* name;  // "Struct.field" for an offset, "Struct" for a size
  size_t value;
};

#define FIELD(type, field) {#type "." #field, offsetof(type, field)}
#define SIZE(type) {#type, sizeof(type)}

// Every member the native layer reads, and the size of every struct it steps through as an array.
const Entry kLayout[] = {
    FIELD(TfLiteContext, tensors_size),
    FIELD(TfLiteContext, tensors),
    SIZE(TfLiteTensor),
    FIELD(TfLiteTensor, type),
    FIELD(TfLiteTensor, data),
    FIELD(TfLiteTensor, dims),
    FIELD(TfLiteTensor, allocation_type),
    FIELD(TfLiteTensor, bytes),
    FIELD(TfLiteTensor, name),
    FIELD(TfLiteTensor, is_variable),
    FIELD(TfLiteIntArray, size),
    FIELD(TfLiteIntArray, data),
    FIELD(TfLiteNode, inputs),
    FIELD(TfLiteNode, outputs),
    FIELD(TfLiteNode, intermediates),
    FIELD(TfLiteNode, temporaries),
    SIZE(TfLiteNode),
    SIZE(TfLiteRegistration),
    FIELD(TfLiteRegistration, builtin_code),
    FIELD(TfLiteRegistration, custom_name),
    FIELD(TfLiteRegistration, inplace_operator),
    // Passed by reference to Subgraph::SetCustomAllocationForTensor.
    SIZE(TfLiteCustomAllocation),
    FIELD(TfLiteCustomAllocation, data),
    FIELD(TfLiteCustomAllocation, bytes),
    // Subgraph::nodes_and_registration_'s element, which the presets map as RegistrationNodePair; with the
    // two sizes above it fixes where the registration starts.
    {"RegistrationNodePair", sizeof(std::pair<TfLiteNode, TfLiteRegistration>)},
};

constexpr jsize kEntries = sizeof(kLayout) / sizeof(kLayout[0]);

}  // namespace

extern "C" JNIEXPORT jobjectArray JNICALL
Java_dev_tflitearena_nativelayer_NativeLayer_layoutNames(JNIEnv* env, jclass) {
  jobjectArray names = env->NewObjectArray(kEntries, env->FindClass("java/lang/String"), nullptr);
  for (jsize i = 0; names != nullptr && i < kEntries; i++) {
    jstring name = env->NewStringUTF(kLayout[i].name);
    if (name == nullptr) return nullptr;
    env->SetObjectArrayElement(names, i, name);
    env->DeleteLocalRef(name);
  }
  return names;
}

extern "C" JNIEXPORT jlongArray JNICALL
Java_dev_tflitearena_nativelayer_NativeLayer_layoutValues(JNIEnv* env, jclass) {
  jlong values[kEntries];
  for (jsize i = 0; i < kEntries; i++) values[i] = static_cast<jlong>(kLayout[i].value);
  jlongArray array = env->NewLongArray(kEntries);
  if (array != nullptr) env->SetLongArrayRegion(array, 0, kEntries, values);
  return array;
}

// The release of the TFLite this library is linked to at run time, for the refusal's message.
extern "C" JNIEXPORT jstring JNICALL
Java_dev_tflitearena_nativelayer_NativeLayer_linkedVersion(JNIEnv* env, jclass) {
  return env->NewStringUTF(TfLiteVersion());
}
