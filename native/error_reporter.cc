// TFLite's ErrorReporter for the models the bridge loads (NativeModel hands it to the verifier, and every
// InterpreterBuilder takes the model's): each report, formatted, goes to TfliteErrorReporter.report, which logs it through
// SLF4J, and also to standard error, as TFLite's own StderrReporter prints it ("ERROR: ..."), where the Java
// side says SLF4J would drop it. What TFLite logs itself (MinimalLogger: the "INFO:" lines) never passes here:
// it writes to stderr with no hook (see docs/server-teams.md, "TFLite's log lines").
#include <jni.h>

#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <vector>

namespace tflite {

// As tensorflow/compiler/mlir/lite/core/api/error_reporter.h declares it in 2.20 (tensorflow/lite/core/api/
// before): the headers cppbuild.sh compiles against are TFLite's C API only. What TFLite calls through is
// the virtual table (destructor, then Report with a va_list), the same in every release 2.12 to 2.20.
class ErrorReporter {
 public:
  virtual ~ErrorReporter() = default;
  virtual int Report(const char* format, va_list args) = 0;
};

}  // namespace tflite

namespace {

class JavaReporter : public tflite::ErrorReporter {
 public:
  JavaReporter(JavaVM* vm, jclass target, jmethodID report, bool to_stderr)
      : vm_(vm), target_(target), report_(report), to_stderr_(to_stderr) {}

  int Report(const char* format, va_list args) override {
    va_list measure;
    va_copy(measure, args);
    int length = std::vsnprintf(nullptr, 0, format, measure);
    va_end(measure);
    if (length < 0) return 0;
    std::vector<char> text(static_cast<size_t>(length) + 1);
    std::vsnprintf(text.data(), text.size(), format, args);
    if (to_stderr_ || !ToJava(text.data(), length)) {
      std::fprintf(stderr, "ERROR: %s\n", text.data());
    }
    return 0;
  }

 private:
  // False when Java cannot take the report: a thread that cannot attach, or an exception already pending.
  bool ToJava(const char* text, int length) {
    JNIEnv* env = nullptr;
    bool attached = false;
    jint state = vm_->GetEnv(reinterpret_cast<void**>(&env), JNI_VERSION_1_8);
    if (state == JNI_EDETACHED) {
      // A thread of TFLite's own, not one Java called in on.
      if (vm_->AttachCurrentThreadAsDaemon(reinterpret_cast<void**>(&env), nullptr) != JNI_OK) return false;
      attached = true;
    } else if (state != JNI_OK || env->ExceptionCheck()) {
      return false;
    }
    bool delivered = false;
    jbyteArray bytes = env->NewByteArray(length);
    if (bytes != nullptr) {
      env->SetByteArrayRegion(bytes, 0, length, reinterpret_cast<const jbyte*>(text));
      env->CallStaticVoidMethod(target_, report_, bytes);
      env->DeleteLocalRef(bytes);
      delivered = !env->ExceptionCheck();
    }
    // TFLite's frames are between here and Java: a Java exception cannot pass through them.
    env->ExceptionClear();
    if (attached) vm_->DetachCurrentThread();
    return delivered;
  }

  JavaVM* vm_;
  jclass target_;
  jmethodID report_;
  bool to_stderr_;
};

}  // namespace

// The process's one reporter, made at the first call and never freed: interpreters keep a pointer to it.
extern "C" JNIEXPORT jlong JNICALL
Java_dev_tflitearena_nativelayer_TfliteErrorReporter_create(JNIEnv* env, jclass type, jboolean to_stderr) {
  static JavaReporter* reporter = nullptr;
  if (reporter == nullptr) {
    JavaVM* vm = nullptr;
    jmethodID report = env->GetStaticMethodID(type, "report", "([B)V");
    if (report == nullptr || env->GetJavaVM(&vm) != JNI_OK) return 0;
    reporter = new JavaReporter(vm, static_cast<jclass>(env->NewGlobalRef(type)), report, to_stderr);
  }
  return static_cast<jlong>(reinterpret_cast<intptr_t>(static_cast<tflite::ErrorReporter*>(reporter)));
}
