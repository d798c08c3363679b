// A tflite::Profiler that times each node a run invokes (OpProfiler, Java's side): Interpreter::SetProfiler
// wraps it in one SubgraphAwareProfiler per subgraph, so each OPERATOR_INVOKE_EVENT comes with the node's
// index (metadata1), its subgraph's (metadata2) and its op's name as the tag. Events go to an array sized
// when the profiler is made: a run allocates nothing, and the events past its end are counted, not kept.
#include <jni.h>

#include <chrono>
#include <cstdint>
#include <vector>

namespace tflite {

// As tensorflow/lite/core/api/profiler.h declares it in 2.12 to 2.20 (the presets map the same members in
// each): the headers cppbuild.sh compiles against are TFLite's C API only. What TFLite calls through is the
// virtual table, in this order; the non-virtual overloads of BeginEvent and AddEvent have no slot in it.
class Profiler {
 public:
  enum class EventType {
    DEFAULT = 1,
    OPERATOR_INVOKE_EVENT = 1 << 1,
  };
  virtual ~Profiler() = default;
  virtual uint32_t BeginEvent(const char* tag, EventType event_type, int64_t event_metadata1,
                              int64_t event_metadata2) = 0;
  virtual void EndEvent(uint32_t event_handle, int64_t, int64_t) { EndEvent(event_handle); }
  virtual void EndEvent(uint32_t event_handle) = 0;
  virtual void AddEvent(const char*, EventType, uint64_t, int64_t, int64_t) {}
  virtual void AddEventWithData(const char*, EventType, const void*) {}
};

}  // namespace tflite

namespace {

struct NodeEvent {
  const char* op;
  int64_t node;
  int64_t subgraph;
  int64_t begin;
  int64_t end;
};

class NodeProfiler : public tflite::Profiler {
 public:
  explicit NodeProfiler(int capacity) : events_(static_cast<size_t>(capacity)) {}

  // Handles are positions + 1: 0 is the handle of an event not kept, which EndEvent ignores.
  uint32_t BeginEvent(const char* tag, EventType event_type, int64_t node, int64_t subgraph) override {
    if (event_type != EventType::OPERATOR_INVOKE_EVENT) return 0;
    if (count_ == events_.size()) {
      ++dropped_;
      return 0;
    }
    events_[count_] = NodeEvent{tag, node, subgraph, Now(), -1};
    return static_cast<uint32_t>(++count_);
  }

  void EndEvent(uint32_t handle) override {
    if (handle != 0 && handle <= count_) events_[handle - 1].end = Now();
  }

  void Clear() {
    count_ = 0;
    dropped_ = 0;
  }

  size_t count() const { return count_; }
  int64_t dropped() const { return dropped_; }
  const NodeEvent& event(size_t i) const { return events_[i]; }

 private:
  static int64_t Now() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch()).count();
  }

  std::vector<NodeEvent> events_;
  size_t count_ = 0;
  int64_t dropped_ = 0;
};

NodeProfiler* Of(jlong address) {
  return static_cast<NodeProfiler*>(reinterpret_cast<tflite::Profiler*>(static_cast<intptr_t>(address)));
}

}  // namespace

// The address of a new profiler of room for capacity events, as a tflite::Profiler*.
extern "C" JNIEXPORT jlong JNICALL
Java_dev_tflitearena_nativelayer_OpProfiler_create(JNIEnv*, jclass, jint capacity) {
  auto* profiler = new NodeProfiler(capacity);
  return static_cast<jlong>(reinterpret_cast<intptr_t>(static_cast<tflite::Profiler*>(profiler)));
}

extern "C" JNIEXPORT void JNICALL
Java_dev_tflitearena_nativelayer_OpProfiler_clear(JNIEnv*, jclass, jlong address) {
  Of(address)->Clear();
}

// The events since the last clear: {long[] of node, subgraph, nanoseconds (-1 if not ended) per event,
// then the count of events dropped; String[] of their ops' names}. Null when Java runs out of memory.
extern "C" JNIEXPORT jobjectArray JNICALL
Java_dev_tflitearena_nativelayer_OpProfiler_events(JNIEnv* env, jclass, jlong address) {
  const NodeProfiler* profiler = Of(address);
  size_t count = profiler->count();
  std::vector<jlong> values;
  values.reserve(3 * count + 1);
  jclass string = env->FindClass("java/lang/String");
  if (string == nullptr) return nullptr;
  jobjectArray ops = env->NewObjectArray(static_cast<jsize>(count), string, nullptr);
  if (ops == nullptr) return nullptr;
  for (size_t i = 0; i < count; ++i) {
    const NodeEvent& event = profiler->event(i);
    values.push_back(event.node);
    values.push_back(event.subgraph);
    values.push_back(event.end < 0 ? -1 : event.end - event.begin);
    jstring op = env->NewStringUTF(event.op == nullptr ? "" : event.op);
    if (op == nullptr) return nullptr;
    env->SetObjectArrayElement(ops, static_cast<jsize>(i), op);
    env->DeleteLocalRef(op);
  }
  values.push_back(profiler->dropped());
  jlongArray numbers = env->NewLongArray(static_cast<jsize>(values.size()));
  if (numbers == nullptr) return nullptr;
  env->SetLongArrayRegion(numbers, 0, static_cast<jsize>(values.size()), values.data());
  jobjectArray result = env->NewObjectArray(2, env->FindClass("java/lang/Object"), nullptr);
  if (result == nullptr) return nullptr;
  env->SetObjectArrayElement(result, 0, numbers);
  env->SetObjectArrayElement(result, 1, ops);
  return result;
}

extern "C" JNIEXPORT void JNICALL
Java_dev_tflitearena_nativelayer_OpProfiler_free(JNIEnv*, jclass, jlong address) {
  delete Of(address);
}
