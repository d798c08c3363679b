// Sets the order a subgraph runs its nodes in, before its first AllocateTensors: the presets do not map
// Subgraph::SetExecutionPlan, and the vector execution_plan() hands to Java is a copy.
#include <jni.h>

#include <vector>

#include "tensorflow/lite/core/c/common.h"

namespace tflite {
// Only this member of core/subgraph.h is called here; the presets' library exports it, and a non-virtual
// member function is found by its mangled name alone (as in handover.cc).
class Subgraph {
 public:
  TfLiteStatus SetExecutionPlan(const std::vector<int>& new_plan);
};
}  // namespace tflite

// The subgraph's status: TFLite refuses a node index it does not have.
extern "C" JNIEXPORT jint JNICALL
Java_dev_tflitearena_nativelayer_NativeLayer_setExecutionPlan0(JNIEnv* env, jclass, jlong subgraph_address,
                                                              jintArray plan_array) {
  auto* subgraph = reinterpret_cast<tflite::Subgraph*>(static_cast<intptr_t>(subgraph_address));
  std::vector<int> plan(env->GetArrayLength(plan_array));
  if (!plan.empty()) env->GetIntArrayRegion(plan_array, 0, static_cast<jsize>(plan.size()), plan.data());
  return subgraph->SetExecutionPlan(plan);
}
