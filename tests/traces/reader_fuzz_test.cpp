// Fuzzing the trace reader over the committed corpus (tests/traces/corpus/,
// written by make_corpus.py): every file must either read to END or fail
// with a TraceError that names a byte offset; never crash, hang or allocate
// what a length field claims. Run under ASan/UBSan in CI (-DKILN_SANITIZE=ON).
// The file name prefix says which outcome is required (see make_corpus.py).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>

#include "tests/traces/protocol_test_util.h"
#include "traces/protocol.h"
#include "traces/reader.h"

namespace kiln::trace {
namespace {

namespace fs = std::filesystem;
using test_util::collect;
using test_util::Collected;

fs::path corpus_dir() { return fs::path(__FILE__).parent_path() / "corpus"; }

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

std::vector<fs::path> corpus_files() {
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(corpus_dir()))
    if (entry.path().extension() == ".kilntrace") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

// What a reader makes of `bytes`: the events read, and the error if any.
Collected read_all(const std::string& bytes) {
  TraceReader r = TraceReader::from_bytes(bytes, "fuzz");
  return collect(r);
}

// The frames a splitter cuts from `bytes` fed in `step`-byte pieces, with the
// error that stopped it ("" when the input ended cleanly at a frame boundary).
std::pair<std::vector<std::string>, std::string> split(const std::string& bytes, size_t step) {
  FrameSplitter s;
  std::vector<std::string> frames;
  try {
    for (size_t i = 0; i < bytes.size(); i += step) {
      s.feed(std::string_view(bytes).substr(i, step));
      while (auto f = s.next())
        frames.push_back(std::to_string(f->offset) + ":" + std::string(f->payload));
    }
    s.finish();
  } catch (const TraceError& e) {
    return {frames, e.what()};
  }
  return {frames, ""};
}

TEST(ReaderFuzz, CorpusIsLargeEnough) {
  std::vector<fs::path> files = corpus_files();
  EXPECT_GE(files.size(), 100u) << "regenerate with tests/traces/make_corpus.py";
  size_t valid = 0;
  for (const auto& f : files) valid += f.filename().string().rfind("valid_", 0) == 0;
  EXPECT_GE(valid, 5u);
}

TEST(ReaderFuzz, EveryCorpusFileReadsOrFailsCleanly) {
  for (const fs::path& path : corpus_files()) {
    std::string name = path.filename().string();
    SCOPED_TRACE(name);
    TraceReader r = TraceReader::open_file(path.string());
    Collected c = collect(r);
    if (name.rfind("valid_", 0) == 0) {
      EXPECT_TRUE(c.ended) << c.error;
    } else if (name.rfind("flip_", 0) != 0) {
      EXPECT_FALSE(c.ended) << "accepted a broken file";
    }
    if (!c.ended) {
      EXPECT_NE(c.error.find("byte"), std::string::npos) << c.error;
    }
    // The same verdict whatever the bytes' arrival pattern.
    std::string bytes = slurp(path);
    EXPECT_EQ(read_all(bytes).error.empty(), c.error.empty());
    EXPECT_EQ(split(bytes, 1), split(bytes, 1 << 20));
  }
}

TEST(ReaderFuzz, RandomMutationsOfValidFilesNeverCrash) {
  std::mt19937_64 rng(4);
  int rejected = 0, total = 0;
  for (const fs::path& path : corpus_files()) {
    if (path.filename().string().rfind("valid_", 0) != 0) continue;
    std::string base = slurp(path);
    for (int i = 0; i < 150; ++i, ++total) {
      std::string b = base;
      switch (rng() % 4) {
        case 0:  // flip bytes
          for (int k = 0; k < 1 + int(rng() % 4); ++k) b[rng() % b.size()] ^= char(1 + rng() % 255);
          break;
        case 1:  // cut
          b.resize(rng() % b.size());
          break;
        case 2:  // insert garbage
          b.insert(rng() % (b.size() + 1), std::string(1 + rng() % 16, char(rng())));
          break;
        default:  // a huge little-endian u32 somewhere (lengths, counts, ids)
          if (b.size() >= 4) {
            size_t at = rng() % (b.size() - 3);
            for (int k = 0; k < 4; ++k) b[at + k] = char(0xff - (rng() % 2));
          }
      }
      Collected c = read_all(b);
      rejected += !c.ended;
      if (!c.ended) {
        EXPECT_NE(c.error.find("byte"), std::string::npos) << c.error;
      }
    }
  }
  EXPECT_GT(rejected, total / 2);  // mutations are mostly caught, not silently accepted
}

}  // namespace
}  // namespace kiln::trace
