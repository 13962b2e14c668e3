// torch.save / torch.load: a checkpoint PyTorch 2.x wrote loads as PyTorch
// loads it (fixtures/pytorch_checkpoint.pt, made by make_pytorch_checkpoint.py;
// the expected text is PyTorch's own output for the same script), Kiln's own
// files round-trip with storage sharing and Python types intact, and bad files
// give clear errors, never a crash.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>

#include "core/lang/interp.h"
#include "tests/lang/run_script.h"

namespace kiln::lang {
namespace {

std::string temp_path(const char* name) { return ::testing::TempDir() + "kiln_serialize_" + name; }

TEST(Serialize, LoadsACheckpointPyTorchWrote) {
  std::string path = std::string(KILN_LANG_FIXTURES) + "/pytorch_checkpoint.pt";
  EXPECT_EQ(run("import torch\nc = torch.load('" + path + R"py(')
print(list(c.keys()))
print(type(c["model"]).__name__, c["model"])
print(c["w"], c["col"], c["col"].stride(), c["col"].storage_offset())
print(c["step"], c["lr"], c["big"], c["name"], c["tag"], c["hist"], type(c["od"]).__name__, c["od"])
print(c["p"], c["ints"], c["mask"], c["f64"])
c["w"][0, 1] = 100.0
print(c["col"])
)py"),
            "['model', 'w', 'col', 'step', 'lr', 'big', 'name', 'tag', 'hist', 'p', 'ints', 'mask', 'f64', 'od']\n"
            "OrderedDict OrderedDict([('weight', tensor([[-0.0053,  0.3793],\n"
            "        [-0.5820, -0.5204]])), ('bias', tensor([-0.2723,  0.1896]))])\n"
            "tensor([[ 0.,  1.,  2.,  3.],\n"
            "        [ 4.,  5.,  6.,  7.],\n"
            "        [ 8.,  9., 10., 11.]]) tensor([1., 5., 9.]) (4,) 1\n"
            "5 0.1 -1099511627776 run (1, 'a', None) [0.5, 0.25] OrderedDict OrderedDict([('a', 1)])\n"
            "Parameter containing:\n"
            "tensor([1., 1.], requires_grad=True) tensor([1, 2, 3]) tensor([ True, False]) "
            "tensor([1.2500], dtype=torch.float64)\n"
            "tensor([100.,   5.,   9.])\n");
}

TEST(Serialize, RoundTripsTrainingState) {
  std::string path = temp_path("roundtrip.pt");
  EXPECT_EQ(run("import torch\nimport torch.nn as nn\npath = '" + path + R"py('
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4))
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
model(torch.randn(6, 3)).sum().backward()
opt.step()
base = torch.arange(6.0)
torch.save({"model": model.state_dict(), "opt": opt.state_dict(), "epoch": 7, "view": base[1::2], "base": base,
            "p": nn.Parameter(torch.zeros(2)), "t": (1.5, None, True)}, path)
c = torch.load(path, map_location="cpu")
fresh = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4))
fresh.load_state_dict(c["model"])
print(torch.equal(fresh[0].weight, model[0].weight), torch.equal(fresh[1].running_var, model[1].running_var))
print(c["opt"]["param_groups"][0]["momentum"], torch.equal(c["opt"]["state"][0]["momentum_buffer"],
                                                            opt.state[model[0].weight]["momentum_buffer"]))
c["base"][1] = -1.0
print(c["epoch"], c["view"], type(c["p"]).__name__, c["p"].requires_grad, c["t"])
)py"),
            "True True\n0.9 True\n7 tensor([-1.,  3.,  5.]) Parameter True (1.5, None, True)\n");
  std::remove(path.c_str());
}

TEST(Serialize, BadFilesGiveClearErrors) {
  std::string garbage = temp_path("garbage.pt");
  std::ofstream(garbage, std::ios::binary) << "PK not a zip at all";
  EXPECT_EQ(run("import torch\ntry:\n    torch.load('/nonexistent/kiln.pt')\nexcept FileNotFoundError as e:\n"
                "    print(e)\n"),
            "[Errno 2] No such file or directory: '/nonexistent/kiln.pt'\n");
  EXPECT_EQ(run("import torch\ntry:\n    torch.load('" + garbage + "')\nexcept RuntimeError as e:\n    print(e)\n"),
            "torch.load: '" + garbage +
                "' is not a PyTorch checkpoint (too short for a zip archive); torch.save writes one, in PyTorch's "
                "zip format\n");
  EXPECT_EQ(run("import torch\ntry:\n    torch.save({'f': iter([])}, '" + garbage + "')\nexcept TypeError as e:\n"
                "    print(e)\n"),
            "torch.save: kiln saves tensors, containers, numbers, strings, and instances, functions and classes a "
            "script defines, not 'list_iterator'\n");
  std::remove(garbage.c_str());
}

// Every byte of a real checkpoint overwritten in turn, and every truncation point
// sampled: each load either succeeds or raises a Python exception.
TEST(Serialize, CorruptCheckpointsNeverCrash) {
  std::ifstream src(std::string(KILN_LANG_FIXTURES) + "/pytorch_checkpoint.pt", std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(src)), std::istreambuf_iterator<char>());
  ASSERT_GT(bytes.size(), 1000u);
  std::string path = temp_path("corrupt.pt");
  const std::string script = "import torch\ntry:\n    torch.load('" + path +
                             "')\n    print('ok')\nexcept (RuntimeError, NotImplementedError, torch.serialization.UnpicklingError):\n"
                             "    print('error')\n";
  std::ostringstream out;
  Interp in(&out);  // one interpreter for every load: the prelude loads once
  int loads = 0;
  for (size_t i = 0; i < bytes.size(); i += 7) {
    std::string b = bytes;
    b[i] = char(uint8_t(b[i]) ^ 0x5a);
    if (i % 5 == 0) b.resize(i);
    std::ofstream(path, std::ios::binary | std::ios::trunc) << b;
    out.str("");
    try {
      in.run_source(script, "corrupt.py");
    } catch (const ScriptException& e) {
      out << in.format_exception(e);
    }
    EXPECT_TRUE(out.str() == "ok\n" || out.str() == "error\n") << "byte " << i << ": " << out.str();
    ++loads;
  }
  EXPECT_GT(loads, 400);
  std::remove(path.c_str());
}

}  // namespace
}  // namespace kiln::lang
