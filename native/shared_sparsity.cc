// Sparse constants' index structures shared between interpreters of one model. TFLite's InterpreterBuilder
// copies every sparse tensor's TfLiteSparsity out of the model into mallocs of its own, per interpreter; kernels
// only read it (DENSIFY once, sparse FULLY_CONNECTED and LSTM on every invoke, through tensor->sparsity). So
// one deep copy can serve every interpreter: each checks its own equals the copy, frees its own as TFLite's
// TfLiteSparsityFree would, and points at the copy; before the interpreter is deleted the pointer is cleared,
// so that TFLite's TfLiteTensorFree does not free the shared copy.
#include <jni.h>
#include <malloc.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "tensorflow/lite/core/c/common.h"

namespace {

TfLiteContext* context_at(jlong address) { return reinterpret_cast<TfLiteContext*>(static_cast<intptr_t>(address)); }

size_t usable(const void* block) { return block == nullptr ? 0 : malloc_usable_size(const_cast<void*>(block)); }

size_t int_array_bytes(const TfLiteIntArray* array) { return sizeof(TfLiteIntArray) + sizeof(int) * array->size; }

TfLiteIntArray* copy_ints(const TfLiteIntArray* source) {
  if (source == nullptr) return nullptr;
  auto* copy = static_cast<TfLiteIntArray*>(malloc(int_array_bytes(source)));
  if (copy != nullptr) std::memcpy(copy, source, int_array_bytes(source));
  return copy;
}

bool same_ints(const TfLiteIntArray* a, const TfLiteIntArray* b) {
  if (a == nullptr || b == nullptr) return a == b;
  return a->size == b->size && std::memcmp(a->data, b->data, sizeof(int) * a->size) == 0;
}

// As TfLiteSparsityFree in TFLite's common.cc: index arrays of sparse dimensions only, then the rest.
void free_sparsity(TfLiteSparsity* sparsity) {
  if (sparsity == nullptr) return;
  free(sparsity->traversal_order);
  free(sparsity->block_map);
  if (sparsity->dim_metadata != nullptr) {
    for (int d = 0; d < sparsity->dim_metadata_size; d++) {
      TfLiteDimensionMetadata& metadata = sparsity->dim_metadata[d];
      if (metadata.format == kTfLiteDimSparseCSR) {
        free(metadata.array_segments);
        free(metadata.array_indices);
      }
    }
    free(sparsity->dim_metadata);
  }
  free(sparsity);
}

// Null when malloc fails.
TfLiteSparsity* copy_sparsity(const TfLiteSparsity* source) {
  auto* copy = static_cast<TfLiteSparsity*>(calloc(1, sizeof(TfLiteSparsity)));
  if (copy == nullptr) return nullptr;
  copy->traversal_order = copy_ints(source->traversal_order);
  copy->block_map = copy_ints(source->block_map);
  copy->dim_metadata_size = source->dim_metadata_size;
  bool failed = (source->traversal_order != nullptr && copy->traversal_order == nullptr) ||
                (source->block_map != nullptr && copy->block_map == nullptr);
  if (source->dim_metadata != nullptr && source->dim_metadata_size > 0) {
    copy->dim_metadata = static_cast<TfLiteDimensionMetadata*>(
        calloc(source->dim_metadata_size, sizeof(TfLiteDimensionMetadata)));
    failed = failed || copy->dim_metadata == nullptr;
    for (int d = 0; !failed && d < source->dim_metadata_size; d++) {
      const TfLiteDimensionMetadata& from = source->dim_metadata[d];
      TfLiteDimensionMetadata& to = copy->dim_metadata[d];
      to.format = from.format;
      to.dense_size = from.dense_size;
      if (from.format == kTfLiteDimSparseCSR) {
        to.array_segments = copy_ints(from.array_segments);
        to.array_indices = copy_ints(from.array_indices);
        failed = (from.array_segments != nullptr && to.array_segments == nullptr) ||
                 (from.array_indices != nullptr && to.array_indices == nullptr);
      }
    }
  }
  if (failed) {
    free_sparsity(copy);
    return nullptr;
  }
  return copy;
}

bool same_sparsity(const TfLiteSparsity* a, const TfLiteSparsity* b) {
  if (!same_ints(a->traversal_order, b->traversal_order) || !same_ints(a->block_map, b->block_map) ||
      a->dim_metadata_size != b->dim_metadata_size) {
    return false;
  }
  for (int d = 0; d < a->dim_metadata_size; d++) {
    const TfLiteDimensionMetadata& x = a->dim_metadata[d];
    const TfLiteDimensionMetadata& y = b->dim_metadata[d];
    if (x.format != y.format || x.dense_size != y.dense_size) return false;
    if (x.format == kTfLiteDimSparseCSR &&
        (!same_ints(x.array_segments, y.array_segments) || !same_ints(x.array_indices, y.array_indices))) {
      return false;
    }
  }
  return true;
}

size_t sparsity_bytes(const TfLiteSparsity* sparsity) {
  size_t bytes = usable(sparsity) + usable(sparsity->traversal_order) + usable(sparsity->block_map) +
                 usable(sparsity->dim_metadata);
  for (int d = 0; d < sparsity->dim_metadata_size; d++) {
    bytes += usable(sparsity->dim_metadata[d].array_segments) + usable(sparsity->dim_metadata[d].array_indices);
  }
  return bytes;
}

// The tensors a call names and the copy each is to point at, read out of the caller's two arrays.
struct Copies {
  std::vector<jint> tensors;
  std::vector<jlong> addresses;

  Copies(JNIEnv* env, jintArray tensor_array, jlongArray address_array)
      : tensors(env->GetArrayLength(tensor_array)), addresses(tensors.size()) {
    jsize count = static_cast<jsize>(tensors.size());
    env->GetIntArrayRegion(tensor_array, 0, count, tensors.data());
    env->GetLongArrayRegion(address_array, 0, count, addresses.data());
  }

  TfLiteTensor* tensor(TfLiteContext* context, size_t i) const {
    return tensors[i] < 0 || static_cast<size_t>(tensors[i]) >= context->tensors_size ? nullptr
                                                                                      : &context->tensors[tensors[i]];
  }

  TfLiteSparsity* copy(size_t i) const { return reinterpret_cast<TfLiteSparsity*>(addresses[i]); }
};

}  // namespace

// {tensor, address of the copy, its bytes as malloc_usable_size counts them} per sparse tensor of the
// subgraph; null, with an OutOfMemoryError pending, when malloc fails (the copies made are freed).
extern "C" JNIEXPORT jlongArray JNICALL
Java_dev_tflitearena_nativelayer_NativeLayer_copySparsity0(JNIEnv* env, jclass, jlong context_address) {
  TfLiteContext* context = context_at(context_address);
  std::vector<jlong> out;
  for (size_t t = 0; t < context->tensors_size; t++) {
    const TfLiteSparsity* sparsity = context->tensors[t].sparsity;
    if (sparsity == nullptr) continue;
    TfLiteSparsity* copy = copy_sparsity(sparsity);
    if (copy == nullptr) {
      for (size_t i = 0; i < out.size(); i += 3) free_sparsity(reinterpret_cast<TfLiteSparsity*>(out[i + 1]));
      env->ThrowNew(env->FindClass("java/lang/OutOfMemoryError"), "cannot copy a sparse tensor's indices");
      return nullptr;
    }
    out.push_back(static_cast<jlong>(t));
    out.push_back(reinterpret_cast<jlong>(copy));
    out.push_back(static_cast<jlong>(sparsity_bytes(copy)));
  }
  jlongArray result = env->NewLongArray(static_cast<jsize>(out.size()));
  if (result != nullptr) env->SetLongArrayRegion(result, 0, static_cast<jsize>(out.size()), out.data());
  return result;
}

// Points each of tensors at its shared copy, its own freed, once every one has been checked equal to its copy:
// -1 when done, else the position of the first that is not sparse or differs, and nothing changed.
extern "C" JNIEXPORT jint JNICALL
Java_dev_tflitearena_nativelayer_NativeLayer_shareSparsity0(JNIEnv* env, jclass, jlong context_address,
                                                            jintArray tensors, jlongArray copies) {
  TfLiteContext* context = context_at(context_address);
  Copies shared(env, tensors, copies);
  for (size_t i = 0; i < shared.tensors.size(); i++) {
    const TfLiteTensor* tensor = shared.tensor(context, i);
    if (tensor == nullptr || tensor->sparsity == nullptr || !same_sparsity(tensor->sparsity, shared.copy(i))) {
      return static_cast<jint>(i);
    }
  }
  for (size_t i = 0; i < shared.tensors.size(); i++) {
    TfLiteTensor* tensor = shared.tensor(context, i);
    free_sparsity(tensor->sparsity);
    tensor->sparsity = shared.copy(i);
  }
  return -1;
}

// Before the interpreter is deleted: those of tensors that point at their shared copy point at nothing.
extern "C" JNIEXPORT void JNICALL
Java_dev_tflitearena_nativelayer_NativeLayer_unshareSparsity0(JNIEnv* env, jclass, jlong context_address,
                                                              jintArray tensors, jlongArray copies) {
  TfLiteContext* context = context_at(context_address);
  Copies shared(env, tensors, copies);
  for (size_t i = 0; i < shared.tensors.size(); i++) {
    TfLiteTensor* tensor = shared.tensor(context, i);
    if (tensor != nullptr && tensor->sparsity == shared.copy(i)) tensor->sparsity = nullptr;
  }
}

extern "C" JNIEXPORT void JNICALL
Java_dev_tflitearena_nativelayer_NativeLayer_freeSparsity0(JNIEnv*, jclass, jlong address) {
  free_sparsity(reinterpret_cast<TfLiteSparsity*>(static_cast<intptr_t>(address)));
}
