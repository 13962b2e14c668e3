#include "core/ops/onednn_runtime.h"

#include <omp.h>

#include <cstdlib>
#include <cstring>

#include "core/error.h"
#include "core/format.h"
#include "core/thread_pool.h"

namespace kiln {
namespace ops {

dnnl::engine& onednn_engine() {
  static dnnl::engine engine(dnnl::engine::kind::cpu, 0);
  return engine;
}

dnnl::stream& onednn_stream() {
  thread_local dnnl::stream stream(onednn_engine());
  return stream;
}

void onednn_match_threads() { omp_set_num_threads(num_threads()); }

bool onednn_enabled_by(const char* var, const char* off) {
  const char* env = std::getenv(var);
  if (!env || !*env || std::strcmp(env, "onednn") == 0) return true;
  if (std::strcmp(env, off) == 0) return false;
  throw Error(detail::cat(var, " must be 'onednn' or '", off, "', got '", env, "'"), ErrorKind::Value);
}

bool onednn_is_reference(const std::string& impl_info) {
  return impl_info.rfind("ref", 0) == 0 || impl_info.find(":ref") != std::string::npos;
}

}  // namespace ops
}  // namespace kiln
