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

// Writes straight into the Java arrays, sized by a first pass over the subgraph and held with
// GetPrimitiveArrayCritical while it copies (no JNI call happens in between).
struct Arrays {
  jint* ints;
  jlong* longs;
  jbyte* strings;
  size_t int_at = 0;
  size_t long_at = 0;
  size_t string_at = 0;

  void add_int(jint value) { ints[int_at++] = value; }
  void add_long(jlong value) { longs[long_at++] = value; }

  void add_string(const char* text) {
    if (text == nullptr) {
      add_int(-1);
      return;
    }
    size_t length = std::strlen(text);
    add_int(static_cast<jint>(length));
    std::memcpy(strings + string_at, text, length);
    string_at += length;
  }

  void add_ints(const TfLiteIntArray* array) {
    if (array == nullptr) {
      add_int(0);
      return;
    }
    add_int(array->size);
    std::memcpy(ints + int_at, array->data, sizeof(jint) * array->size);
    int_at += array->size;
  }
};

// What Arrays::add_string and add_ints will take, added to the counts.
void count_string(const char* text, size_t& ints, size_t& strings) {
  ints++;
  if (text != nullptr) strings += std::strlen(text);
}

void count_ints(const TfLiteIntArray* array, size_t& ints) { ints += 1 + (array == nullptr ? 0 : array->size); }

void throw_state(JNIEnv* env, const char* message) {
  env->ThrowNew(env->FindClass("java/lang/IllegalStateException"), message);
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
  // TfLiteContext's GetExecutionPlan and GetNodeAndRegistration serve delegates only: once prepared, a
  // subgraph answers them with an error. Its nodes are Subgraph::nodes_and_registration_, a std::vector of
  // these pairs, whose first element and plan the caller passes (the presets map both).
  auto* pairs = reinterpret_cast<const NodeAndRegistration*>(static_cast<intptr_t>(nodes_address));
  jsize plan_size = env->GetArrayLength(plan);
  std::vector<jint> plan_nodes(plan_size);
  env->GetIntArrayRegion(plan, 0, plan_size, plan_nodes.data());
  for (jint node_index : plan_nodes) {
    if (node_index < 0 || node_index >= node_count) {
      throw_state(env, "the execution plan names a node the subgraph does not have");
      return nullptr;
    }
  }

  size_t int_count = 2 + 4 * context->tensors_size;
  size_t string_count = 0;
  for (size_t t = 0; t < context->tensors_size; t++) {
    count_string(context->tensors[t].name, int_count, string_count);
    count_ints(context->tensors[t].dims, int_count);
  }
  for (jint node_index : plan_nodes) {
    const TfLiteNode& node = pairs[node_index].first;
    int_count += 2;
    count_string(pairs[node_index].second.custom_name, int_count, string_count);
    count_ints(node.inputs, int_count);
    count_ints(node.outputs, int_count);
    count_ints(node.temporaries, int_count);
    count_ints(node.intermediates, int_count);
  }
  jintArray ints = env->NewIntArray(static_cast<jsize>(int_count));
  jlongArray longs = env->NewLongArray(static_cast<jsize>(2 * context->tensors_size + plan_nodes.size()));
  jbyteArray strings = env->NewByteArray(static_cast<jsize>(string_count));
  if (ints == nullptr || longs == nullptr || strings == nullptr) return nullptr;  // OutOfMemoryError pending
  jobjectArray result = env->NewObjectArray(3, env->FindClass("java/lang/Object"), nullptr);
  if (result == nullptr) return nullptr;
  env->SetObjectArrayElement(result, 0, ints);
  env->SetObjectArrayElement(result, 1, longs);
  env->SetObjectArrayElement(result, 2, strings);

  Arrays out;
  out.ints = static_cast<jint*>(env->GetPrimitiveArrayCritical(ints, nullptr));
  out.longs = static_cast<jlong*>(env->GetPrimitiveArrayCritical(longs, nullptr));
  out.strings = static_cast<jbyte*>(env->GetPrimitiveArrayCritical(strings, nullptr));
  if (out.ints == nullptr || out.longs == nullptr || out.strings == nullptr) {
    if (out.strings != nullptr) env->ReleasePrimitiveArrayCritical(strings, out.strings, JNI_ABORT);
    if (out.longs != nullptr) env->ReleasePrimitiveArrayCritical(longs, out.longs, JNI_ABORT);
    if (out.ints != nullptr) env->ReleasePrimitiveArrayCritical(ints, out.ints, JNI_ABORT);
    throw_state(env, "the JVM would not lend the snapshot's arrays");
    return nullptr;
  }

  out.add_int(static_cast<jint>(context->tensors_size));
  for (size_t t = 0; t < context->tensors_size; t++) {
    const TfLiteTensor& tensor = context->tensors[t];
    out.add_int(tensor.type);
    out.add_int(tensor.allocation_type);
    out.add_int(tensor.is_variable ? 1 : 0);
    out.add_string(tensor.name);
    out.add_ints(tensor.dims);
    out.add_long(static_cast<jlong>(tensor.bytes));
    out.add_long(static_cast<jlong>(reinterpret_cast<intptr_t>(tensor.data.raw)));
  }
  out.add_int(plan_size);
  for (jint node_index : plan_nodes) {
    const TfLiteNode& node = pairs[node_index].first;
    const TfLiteRegistration& registration = pairs[node_index].second;
    // The flags TFLite defines fit in the low bits; the per-field path reads them as an int too.
    out.add_int(static_cast<jint>(registration.inplace_operator));
    // Each node holds a copy of its registration: the op's name is asked once per builtin code and custom name.
    out.add_int(registration.builtin_code);
    out.add_string(registration.custom_name);
    out.add_ints(node.inputs);
    out.add_ints(node.outputs);
    out.add_ints(node.temporaries);
    out.add_ints(node.intermediates);
    out.add_long(static_cast<jlong>(reinterpret_cast<intptr_t>(&registration)));
  }

  env->ReleasePrimitiveArrayCritical(strings, out.strings, 0);
  env->ReleasePrimitiveArrayCritical(longs, out.longs, 0);
  env->ReleasePrimitiveArrayCritical(ints, out.ints, 0);
  return result;
}
