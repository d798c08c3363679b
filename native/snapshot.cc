// The bulk snapshot: one call per subgraph copies every tensor, the execution plan and every node of the
// plan out of the subgraph's TfLiteContext into three Java arrays the caller lends, where reading them
// field by field through the presets costs a JNI crossing per field. bridge/snapshot/BulkSnapshot.java
// decodes the arrays; the format is written down there, and the two must change together.
#include <jni.h>

#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

#include "tensorflow/lite/core/c/common.h"

namespace {

using NodeAndRegistration = std::pair<TfLiteNode, TfLiteRegistration>;

// Writes straight into the caller's Java arrays, held with GetPrimitiveArrayCritical while it copies (no JNI
// call happens in between), once a first pass over the subgraph has found them large enough. That pass
// keeps each name's length for this one.
struct Arrays {
  jint* ints;
  jlong* longs;
  jbyte* strings;
  const size_t* lengths;
  size_t int_at = 0;
  size_t long_at = 0;
  size_t string_at = 0;
  size_t length_at = 0;

  void add_int(jint value) { ints[int_at++] = value; }
  void add_long(jlong value) { longs[long_at++] = value; }

  void add_string(const char* text) {
    if (text == nullptr) {
      add_int(-1);
      return;
    }
    size_t length = lengths[length_at++];
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

// What Arrays::add_string and add_ints will take, added to the counts; a name's length is kept in lengths.
void count_string(const char* text, size_t& ints, size_t& strings, std::vector<size_t>& lengths) {
  ints++;
  if (text == nullptr) return;
  lengths.push_back(std::strlen(text));
  strings += lengths.back();
}

void count_ints(const TfLiteIntArray* array, size_t& ints) { ints += 1 + (array == nullptr ? 0 : array->size); }

void throw_state(JNIEnv* env, const char* message) {
  env->ThrowNew(env->FindClass("java/lang/IllegalStateException"), message);
}

}  // namespace

// Fills ints, longs and strings in the format bridge/snapshot/BulkSnapshot.java decodes and returns true
// when they are large enough; else writes the lengths the three need into needed and returns false, having
// written nothing else. The caller keeps its arrays from call to call: the snapshot allocates nothing in the JVM.
extern "C" JNIEXPORT jboolean JNICALL
Java_dev_tflitearena_nativelayer_NativeLayer_snapshot(JNIEnv* env, jclass, jlong context_address,
                                                      jlong nodes_address, jint node_count, jintArray plan,
                                                      jintArray needed, jintArray ints, jlongArray longs,
                                                      jbyteArray strings) {
  auto* context = reinterpret_cast<TfLiteContext*>(static_cast<intptr_t>(context_address));
  if (context == nullptr || (node_count > 0 && nodes_address == 0)) {
    throw_state(env, "the subgraph has no TfLiteContext or no nodes");
    return JNI_FALSE;
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
      return JNI_FALSE;
    }
  }

  size_t int_count = 2 + 4 * context->tensors_size;
  size_t string_count = 0;
  std::vector<size_t> lengths;
  lengths.reserve(context->tensors_size + plan_nodes.size());
  for (size_t t = 0; t < context->tensors_size; t++) {
    count_string(context->tensors[t].name, int_count, string_count, lengths);
    count_ints(context->tensors[t].dims, int_count);
  }
  for (jint node_index : plan_nodes) {
    const TfLiteNode& node = pairs[node_index].first;
    int_count += 2;
    count_string(pairs[node_index].second.custom_name, int_count, string_count, lengths);
    count_ints(node.inputs, int_count);
    count_ints(node.outputs, int_count);
    count_ints(node.temporaries, int_count);
    count_ints(node.intermediates, int_count);
  }
  size_t long_count = 2 * context->tensors_size + plan_nodes.size();
  if (int_count > static_cast<size_t>(env->GetArrayLength(ints)) ||
      long_count > static_cast<size_t>(env->GetArrayLength(longs)) ||
      string_count > static_cast<size_t>(env->GetArrayLength(strings))) {
    jint counts[] = {static_cast<jint>(int_count), static_cast<jint>(long_count), static_cast<jint>(string_count)};
    env->SetIntArrayRegion(needed, 0, 3, counts);
    return JNI_FALSE;
  }

  Arrays out;
  out.lengths = lengths.data();
  out.ints = static_cast<jint*>(env->GetPrimitiveArrayCritical(ints, nullptr));
  out.longs = static_cast<jlong*>(env->GetPrimitiveArrayCritical(longs, nullptr));
  out.strings = static_cast<jbyte*>(env->GetPrimitiveArrayCritical(strings, nullptr));
  if (out.ints == nullptr || out.longs == nullptr || out.strings == nullptr) {
    if (out.strings != nullptr) env->ReleasePrimitiveArrayCritical(strings, out.strings, JNI_ABORT);
    if (out.longs != nullptr) env->ReleasePrimitiveArrayCritical(longs, out.longs, JNI_ABORT);
    if (out.ints != nullptr) env->ReleasePrimitiveArrayCritical(ints, out.ints, JNI_ABORT);
    throw_state(env, "the JVM would not lend the snapshot's arrays");
    return JNI_FALSE;
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
  return JNI_TRUE;
}
