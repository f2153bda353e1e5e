// JVMTI agent for the conformance driver: sets the heap sampling interval
// (SetHeapSamplingInterval, JEP 331) and writes one line per SampledObjectAlloc event
// whose stack passes through a Driver.site<Name> method, to samples.csv in the working
// directory (the JVM's own standard output is buffered separately):
//   sample,<site>,<size>,<size>,1
// The interval is the agent option: -agentpath:libagent.so=<bytes>.
#include <ctype.h>
#include <jvmti.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static jvmtiEnv* jvmti;
static FILE* samples;

static void JNICALL on_sample(jvmtiEnv* env, JNIEnv* jni, jthread thread, jobject object, jclass klass,
                              jlong size) {
  (void)jni; (void)object; (void)klass;
  jvmtiFrameInfo frames[16];
  jint depth = 0;
  if ((*env)->GetStackTrace(env, thread, 0, 16, frames, &depth) != JVMTI_ERROR_NONE) return;
  for (jint i = 0; i < depth; ++i) {
    char* name = NULL;
    if ((*env)->GetMethodName(env, frames[i].method, &name, NULL, NULL) != JVMTI_ERROR_NONE) continue;
    const int is_site = strncmp(name, "site", 4) == 0 && name[4] != '\0';
    if (is_site) {
      char site[64];
      snprintf(site, sizeof site, "%s", name + 4);
      site[0] = (char)tolower((unsigned char)site[0]);
      fprintf(samples, "sample,%s,%lld,%lld,1\n", site, (long long)size, (long long)size);
    }
    (*env)->Deallocate(env, (unsigned char*)name);
    if (is_site) return;
  }
}

JNIEXPORT jint JNICALL Agent_OnLoad(JavaVM* vm, char* options, void* reserved) {
  (void)reserved;
  if ((*vm)->GetEnv(vm, (void**)&jvmti, JVMTI_VERSION_11) != JNI_OK) return JNI_ERR;
  jvmtiCapabilities capabilities;
  memset(&capabilities, 0, sizeof capabilities);
  capabilities.can_generate_sampled_object_alloc_events = 1;
  if ((*jvmti)->AddCapabilities(jvmti, &capabilities) != JVMTI_ERROR_NONE) {
    fprintf(stderr, "agent: cannot sample object allocations\n");
    return JNI_ERR;
  }
  jvmtiEventCallbacks callbacks;
  memset(&callbacks, 0, sizeof callbacks);
  callbacks.SampledObjectAlloc = on_sample;
  (*jvmti)->SetEventCallbacks(jvmti, &callbacks, sizeof callbacks);
  const jint interval = options != NULL ? atoi(options) : 0;
  if (interval <= 0 || (*jvmti)->SetHeapSamplingInterval(jvmti, interval) != JVMTI_ERROR_NONE) {
    fprintf(stderr, "agent: bad sampling interval \"%s\"\n", options != NULL ? options : "");
    return JNI_ERR;
  }
  samples = fopen("samples.csv", "w");
  if (samples == NULL) {
    fprintf(stderr, "agent: cannot write samples.csv\n");
    return JNI_ERR;
  }
  fprintf(samples, "meta,rate,%d\n", (int)interval);
  (*jvmti)->SetEventNotificationMode(jvmti, JVMTI_ENABLE, JVMTI_EVENT_SAMPLED_OBJECT_ALLOC, NULL);
  return JNI_OK;
}

JNIEXPORT void JNICALL Agent_OnUnload(JavaVM* vm) {
  (void)vm;
  if (samples != NULL) fclose(samples);
}
