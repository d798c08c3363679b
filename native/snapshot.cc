// The bulk snapshot: one call per subgraph copies every tensor, the execution plan and every node of the
// plan out of the subgraph's TfLiteContext into three Java arrays, where reading them field by field
// through the presets costs a JNI crossing per field. bridge/BulkSnapshot.java decodes the arrays; the format
// is written down there, and the two must change together.
#include <jni.h>

#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

#include "tensorflow/lite/core/c/common.h"

namespace {

using NodeAndRegistration = std::pair<TfLiteNode, TfLiteRegistration>;

struct Arrays {
  std::vector<jint> ints;
  std::vector<jlong> longs;
  std::vector<jbyte> strings;

  void add_string(const char* text) {
    if (text == nullptr) {
      ints.push_back(-1);
      return;
    }
    size_t length = std::strlen(text);
    ints.push_back(static_cast<jint>(length));
    strings.insert(strings.end(), text, text + length);
  }

  void add_ints(const TfLiteIntArray* array) {
    if (array == nullptr) {
      ints.push_back(0);
      return;
    }
    ints.push_back(array->size);
    ints.insert(ints.end(), array->data, array->data + array->size);
  }
};

void throw_state(JNIEnv* env, const char* message) {
  env->ThrowNew(env->FindClass("java/lang/IllegalStateException"), message);
}

template <typename Array, typename Element>
Array to_java(JNIEnv* env, const std::vector<Element>& values, Array (JNIEnv::*make)(jsize),
              void (JNIEnv::*fill)(Array, jsize, jsize, const Element*)) {
  Array array = (env->*make)(static_cast<jsize>(values.size()));
  if (array != nullptr && !values.empty()) {
    (env->*fill)(array, 0, static_cast<jsize>(values.size()), values.data());
  }
  return array;
}

}  // namespace

extern "C" JNIEXPORT jobjectArray JNICALL
Java_dev_tflitearena_nativelayer_NativeLayer_snapshot(JNIEnv* env, jclass, jlong context_address,
                                                      jlong nodes_address, jint node_count, jintArray plan) {
  auto* context = reinterpret_cast<TfLiteContext*>(static_cast<intptr_t>(context_address));
  if (context == nullptr || (node_count > 0 && nodes_address == 0)) {
    throw_state(env, "the subgraph has no TfLiteContext or no nodes");
    return nullptr;
  }
  Arrays out;
  out.ints.push_back(static_cast<jint>(context->tensors_size));
  for (size_t t = 0; t < context->tensors_size; t++) {
    const TfLiteTensor& tensor = context->tensors[t];
    out.ints.push_back(tensor.type);
    out.ints.push_back(tensor.allocation_type);
    out.ints.push_back(tensor.is_variable ? 1 : 0);
    out.add_string(tensor.name);
    out.add_ints(tensor.dims);
    out.longs.push_back(static_cast<jlong>(tensor.bytes));
    out.longs.push_back(static_cast<jlong>(reinterpret_cast<intptr_t>(tensor.data.raw)));
  }
  // TfLiteContext's GetExecutionPlan and GetNodeAndRegistration serve delegates only: once prepared, a
  // subgraph answers them with an error. Its nodes are Subgraph::nodes_and_registration_, a std::vector of
  // these pairs, whose first element and plan the caller passes (the presets map both).
  auto* pairs = reinterpret_cast<const NodeAndRegistration*>(static_cast<intptr_t>(nodes_address));
  jsize plan_size = env->GetArrayLength(plan);
  std::vector<jint> plan_nodes(plan_size);
  env->GetIntArrayRegion(plan, 0, plan_size, plan_nodes.data());
  out.ints.push_back(plan_size);
  for (jint node_index : plan_nodes) {
    if (node_index < 0 || node_index >= node_count) {
      throw_state(env, "the execution plan names a node the subgraph does not have");
      return nullptr;
    }
    const TfLiteNode& node = pairs[node_index].first;
    const TfLiteRegistration& registration = pairs[node_index].second;
    // The flags TFLite defines fit in the low bits; the per-field path reads them as an int too.
    out.ints.push_back(static_cast<jint>(registration.inplace_operator));
    // Each node holds a copy of its registration: the op's name is asked once per builtin code and custom name.
    out.ints.push_back(registration.builtin_code);
    out.add_string(registration.custom_name);
    out.add_ints(node.inputs);
    out.add_ints(node.outputs);
    out.add_ints(node.temporaries);
    out.add_ints(node.intermediates);
    out.longs.push_back(static_cast<jlong>(reinterpret_cast<intptr_t>(&registration)));
  }

  jintArray ints = to_java(env, out.ints, &JNIEnv::NewIntArray, &JNIEnv::SetIntArrayRegion);
  jlongArray longs = to_java(env, out.longs, &JNIEnv::NewLongArray, &JNIEnv::SetLongArrayRegion);
  jbyteArray strings = to_java(env, out.strings, &JNIEnv::NewByteArray, &JNIEnv::SetByteArrayRegion);
  if (ints == nullptr || longs == nullptr || strings == nullptr) return nullptr;  // OutOfMemoryError pending
  jobjectArray result = env->NewObjectArray(3, env->FindClass("java/lang/Object"), nullptr);
  if (result == nullptr) return nullptr;
  env->SetObjectArrayElement(result, 0, ints);
  env->SetObjectArrayElement(result, 1, longs);
  env->SetObjectArrayElement(result, 2, strings);
  return result;
}
