// The batched handover: one call per subgraph gives every tensor of a list its custom allocation, and one
// reads back whether each is where it was put. Through the presets each tensor costs about seven JNI
// crossings per step. bridge/handover/PlanHandover.java composes the messages from what these return.
#include <jni.h>

#include <cstdint>
#include <vector>

#include "tensorflow/lite/core/c/common.h"

namespace tflite {
// Only this member of core/subgraph.h is called; the presets' library exports it. A non-virtual member
// function is found by its mangled name alone, so declaring it is enough to call it.
class Subgraph {
 public:
  TfLiteStatus SetCustomAllocationForTensor(int tensor_index, const TfLiteCustomAllocation& allocation,
                                            int64_t flags);
};
}  // namespace tflite

namespace {

// What customAllocations returns for the first tensor it refuses: {position in the list, reason, value}.
enum Refusal : jlong {
  kNoSuchTensor = 0,     // value: the subgraph's tensor count
  kNotPersistent = 1,    // value: the allocation type
  kNotArena = 2,         // value: the allocation type
  kTooLarge = 3,         // value: the tensor's bytes
  kSetRefused = 4,       // value: the status
};

jlongArray refusal(JNIEnv* env, jsize position, Refusal reason, jlong value) {
  jlong values[] = {position, reason, value};
  jlongArray array = env->NewLongArray(3);
  if (array != nullptr) env->SetLongArrayRegion(array, 0, 3, values);
  return array;
}

template <typename Element, typename Array>
std::vector<Element> from_java(JNIEnv* env, Array array, void (JNIEnv::*get)(Array, jsize, jsize, Element*)) {
  std::vector<Element> values(env->GetArrayLength(array));
  if (!values.empty()) (env->*get)(array, 0, static_cast<jsize>(values.size()), values.data());
  return values;
}

}  // namespace

// Gives tensors[i] the bytes[i] bytes at addresses[i]; with persistent_only, only a kTfLiteArenaRwPersistent
// tensor may take one. Null when every tensor took its allocation, else the first refusal (see Refusal).
extern "C" JNIEXPORT jlongArray JNICALL
Java_dev_tflitearena_nativelayer_NativeLayer_customAllocations0(JNIEnv* env, jclass, jlong subgraph_address,
                                                               jlong context_address, jintArray tensor_array,
                                                               jlongArray address_array, jlongArray bytes_array,
                                                               jboolean persistent_only) {
  auto* subgraph = reinterpret_cast<tflite::Subgraph*>(static_cast<intptr_t>(subgraph_address));
  auto* context = reinterpret_cast<TfLiteContext*>(static_cast<intptr_t>(context_address));
  std::vector<jint> tensors = from_java(env, tensor_array, &JNIEnv::GetIntArrayRegion);
  std::vector<jlong> addresses = from_java(env, address_array, &JNIEnv::GetLongArrayRegion);
  std::vector<jlong> bytes = from_java(env, bytes_array, &JNIEnv::GetLongArrayRegion);
  for (size_t i = 0; i < tensors.size(); i++) {
    jsize position = static_cast<jsize>(i);
    jint index = tensors[i];
    if (index < 0 || static_cast<size_t>(index) >= context->tensors_size) {
      return refusal(env, position, kNoSuchTensor, static_cast<jlong>(context->tensors_size));
    }
    const TfLiteTensor& tensor = context->tensors[index];
    TfLiteAllocationType kind = tensor.allocation_type;
    if (persistent_only && kind != kTfLiteArenaRwPersistent) return refusal(env, position, kNotPersistent, kind);
    if (kind != kTfLiteArenaRw && kind != kTfLiteArenaRwPersistent && kind != kTfLiteCustom) {
      return refusal(env, position, kNotArena, kind);
    }
    if (static_cast<jlong>(tensor.bytes) > bytes[i]) {
      return refusal(env, position, kTooLarge, static_cast<jlong>(tensor.bytes));
    }
    TfLiteCustomAllocation allocation;
    allocation.data = reinterpret_cast<void*>(static_cast<intptr_t>(addresses[i]));
    allocation.bytes = static_cast<size_t>(bytes[i]);
    TfLiteStatus status = subgraph->SetCustomAllocationForTensor(index, allocation, kTfLiteCustomAllocationFlagsNone);
    if (status != kTfLiteOk) return refusal(env, position, kSetRefused, status);
  }
  return nullptr;
}

// After AllocateTensors: {the position of the first tensor that is not custom-allocated at addresses[i], or
// -1; then the positions of the variable tensors}, which the caller zeroes as TFLite would have.
extern "C" JNIEXPORT jintArray JNICALL
Java_dev_tflitearena_nativelayer_NativeLayer_customAt0(JNIEnv* env, jclass, jlong context_address,
                                                      jintArray tensor_array, jlongArray address_array) {
  auto* context = reinterpret_cast<TfLiteContext*>(static_cast<intptr_t>(context_address));
  std::vector<jint> tensors = from_java(env, tensor_array, &JNIEnv::GetIntArrayRegion);
  std::vector<jlong> addresses = from_java(env, address_array, &JNIEnv::GetLongArrayRegion);
  std::vector<jint> out{-1};
  for (size_t i = 0; i < tensors.size(); i++) {
    jint index = tensors[i];
    const TfLiteTensor* tensor =
        index >= 0 && static_cast<size_t>(index) < context->tensors_size ? &context->tensors[index] : nullptr;
    if (tensor == nullptr || tensor->allocation_type != kTfLiteCustom ||
        reinterpret_cast<intptr_t>(tensor->data.raw) != static_cast<intptr_t>(addresses[i])) {
      out[0] = static_cast<jint>(i);
      break;
    }
    if (tensor->is_variable) out.push_back(static_cast<jint>(i));
  }
  jintArray array = env->NewIntArray(static_cast<jsize>(out.size()));
  if (array != nullptr) env->SetIntArrayRegion(array, 0, static_cast<jsize>(out.size()), out.data());
  return array;
}
