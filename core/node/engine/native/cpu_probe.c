// Run by scripts/build-engine.mjs before it compiles the binding: prints what cpu_guard.h finds, as one JSON line,
// so that the build leaves out the instructions this machine does not let a process run.
#include "cpu_guard.h"

int main(void) {
  aloud_amx_check amx = aloud_check_amx();
  printf("{\"amx\":{\"cpu\":%s,\"os_enabled\":%s,\"permitted\":%s,\"runs\":%s,\"reason\":\"%s\"}}\n", amx.cpu ? "true" : "false",
         amx.os_enabled ? "true" : "false", amx.permitted ? "true" : "false", amx.runs ? "true" : "false", amx.reason);
  return 0;
}
