// The heap census: what a subgraph's own structures hold on malloc's heap, block by block, as
// malloc_usable_size counts it (the bytes malloc set aside, not the bytes asked for). Only blocks the
// interpreter builder and the subgraph are known to malloc are asked about: a pointer malloc did not hand out
// (a kernel's user_data, an aligned dynamic tensor) must never reach malloc_usable_size. bridge/HeapCensus.java
// names the categories; the two must change together.
#include <jni.h>
#include <malloc.h>

#include <cstdint>
#include <utility>

#include "tensorflow/lite/core/c/common.h"

namespace {

using NodeAndRegistration = std::pair<TfLiteNode, TfLiteRegistration>;

enum Category {
  kTensorArray = 0,     // the subgraph's TfLiteTensor array (std::vector storage, its capacity)
  kShapes = 1,          // every tensor's dims and dims_signature
  kQuantization = 2,    // affine quantization: the struct, its scales and zero points
  kSparsity = 3,        // TfLiteSparsity, its orders, block map, dimension metadata and index arrays
  kDynamicData = 4,     // kTfLiteDynamic tensors' data: the bytes asked for (TFLite may align the block)
  kNodeArray = 5,       // nodes and registrations (std::vector storage, its capacity)
  kNodeLists = 6,       // every node's inputs, outputs, temporaries, intermediates
  kBuiltinData = 7,     // every node's parsed builtin options (or a delegate kernel's params)
  kCategories = 8,
};

size_t usable(const void* block) { return block == nullptr ? 0 : malloc_usable_size(const_cast<void*>(block)); }

}  // namespace

extern "C" JNIEXPORT jlongArray JNICALL
Java_dev_tflitearena_nativelayer_NativeLayer_heapCensus0(JNIEnv* env, jclass, jlong context_address,
                                                         jlong nodes_address, jint node_count) {
  auto* context = reinterpret_cast<TfLiteContext*>(static_cast<intptr_t>(context_address));
  if (context == nullptr || (node_count > 0 && nodes_address == 0)) {
    env->ThrowNew(env->FindClass("java/lang/IllegalStateException"), "the subgraph has no TfLiteContext or no nodes");
    return nullptr;
  }
  jlong bytes[kCategories] = {};
  // Subgraph::tensors_ is a std::vector whose data() the context points at; an empty one has none.
  if (context->tensors_size > 0) bytes[kTensorArray] += usable(context->tensors);
  for (size_t t = 0; t < context->tensors_size; t++) {
    const TfLiteTensor& tensor = context->tensors[t];
    bytes[kShapes] += usable(tensor.dims) + usable(tensor.dims_signature);
    if (tensor.quantization.type == kTfLiteAffineQuantization && tensor.quantization.params != nullptr) {
      auto* affine = static_cast<const TfLiteAffineQuantization*>(tensor.quantization.params);
      bytes[kQuantization] += usable(affine) + usable(affine->scale) + usable(affine->zero_point);
    }
    if (tensor.sparsity != nullptr) {
      const TfLiteSparsity* sparsity = tensor.sparsity;
      bytes[kSparsity] += usable(sparsity) + usable(sparsity->traversal_order) + usable(sparsity->block_map) +
                          usable(sparsity->dim_metadata);
      for (int d = 0; d < sparsity->dim_metadata_size; d++) {
        const TfLiteDimensionMetadata& metadata = sparsity->dim_metadata[d];
        bytes[kSparsity] += usable(metadata.array_segments) + usable(metadata.array_indices);
      }
    }
    if (tensor.allocation_type == kTfLiteDynamic && tensor.data.raw != nullptr) {
      bytes[kDynamicData] += static_cast<jlong>(tensor.bytes);
    }
  }
  auto* pairs = reinterpret_cast<const NodeAndRegistration*>(static_cast<intptr_t>(nodes_address));
  if (node_count > 0) bytes[kNodeArray] += usable(pairs);
  for (jint n = 0; n < node_count; n++) {
    const TfLiteNode& node = pairs[n].first;
    bytes[kNodeLists] += usable(node.inputs) + usable(node.outputs) + usable(node.temporaries) +
                         usable(node.intermediates);
    bytes[kBuiltinData] += usable(node.builtin_data);
  }
  jlongArray result = env->NewLongArray(kCategories);
  if (result != nullptr) env->SetLongArrayRegion(result, 0, kCategories, bytes);
  return result;
}
