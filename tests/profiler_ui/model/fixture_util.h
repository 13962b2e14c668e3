// Shared helpers of the model tests: fixture paths and loading that fails the
// test (not the process) when a fixture is missing or broken.
#pragma once

#include <gtest/gtest.h>

#include <fstream>
#include <memory>
#include <sstream>
#include <string>

#include "profiler_ui/model/analysis.h"
#include "profiler_ui/model/load.h"

namespace kiln::inspect::testing {

inline std::string fixture(const std::string& name) { return std::string(KILN_INSPECT_FIXTURES) + "/" + name; }

// A file's bytes ("" when it cannot be read).
inline std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Loads a fixture; an empty pointer (with a test failure) when it does not load cleanly.
inline std::shared_ptr<const Session> load_fixture(const std::string& name) {
  LoadResult r = load_file(fixture(name));
  EXPECT_TRUE(r.ok()) << r.error;
  if (r.ok()) {
    EXPECT_TRUE(r.session->load_errors().empty()) << r.session->load_errors().front();
  }
  return r.session;
}

inline std::shared_ptr<const Analysis> analyze_fixture(const std::string& name) {
  auto s = load_fixture(name);
  return s ? analyze(s) : nullptr;
}

}  // namespace kiln::inspect::testing
