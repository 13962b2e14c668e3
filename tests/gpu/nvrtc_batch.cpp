#include "tests/gpu/nvrtc_batch.h"

#include <gtest/gtest.h>

#include "core/error.h"
#include "gpu/cuda_codegen.h"

namespace kiln::gpu::test {

void NvrtcBatch::add(kir::Kernel k, const std::string& entry) {
  std::string code = emit_cuda(k, entry).code;
  add_source(std::move(k), entry, std::move(code));
}

void NvrtcBatch::add_source(kir::Kernel k, const std::string& entry, std::string source) {
  sources_.push_back(std::move(source));
  kernels_.push_back(std::move(k));
  entries_.push_back(entry);
}

bool NvrtcBatch::compile(const NvrtcOptions& opt) const {
  std::string tu;
  for (const std::string& s : sources_) tu += s + "\n";
  NvrtcOptions with_ptx = opt;
  with_ptx.want_ptx = true;
  try {
    const NvrtcResult r = nvrtc_compile(tu, "batch.cu", with_ptx);
    // Warnings in generated code hint at wrong code (a narrowing, an unused value).
    bool ok = r.log.empty();
    EXPECT_EQ(r.log, "") << "NVRTC warns for " << opt.arch;
    for (const std::string& e : entries_) {
      const bool found = r.ptx.find(".entry " + e + "(") != std::string::npos;
      EXPECT_TRUE(found) << e << " is missing from the PTX for " << opt.arch;
      ok = ok && found;
    }
    return ok;
  } catch (const Error& batch_error) {
    for (size_t i = 0; i < kernels_.size(); ++i) {
      try {
        nvrtc_compile(sources_[i], entries_[i] + ".cu", opt);
      } catch (const Error& e) {
        ADD_FAILURE() << "NVRTC rejects " << entries_[i] << " for " << opt.arch << ":\n"
                      << kernels_[i].to_text() << "\n"
                      << e.what() << "\n---- source ----\n"
                      << sources_[i];
        return false;
      }
    }
    ADD_FAILURE() << "the batch fails to compile for " << opt.arch << " but each kernel alone compiles:\n"
                  << batch_error.what();
    return false;
  }
}

}  // namespace kiln::gpu::test
