// Checks kiln-inspect screenshots: each PNG must be non-blank (many colours,
// and enough pixels away from the background) and, given several, each must
// differ from every other. Usage: png_check A.png [B.png ...]; exit 1 with
// the reason on the first failure.
#include <stb_image.h>

#include <cstdio>
#include <cstdlib>
#include <set>
#include <string>
#include <vector>

namespace {

struct Image {
  std::string path;
  int w = 0, h = 0;
  std::vector<unsigned char> rgba;
};

bool load(const std::string& path, Image& img) {
  int n = 0;
  unsigned char* px = stbi_load(path.c_str(), &img.w, &img.h, &n, 4);
  if (!px) {
    std::fprintf(stderr, "png_check: cannot read %s: %s\n", path.c_str(), stbi_failure_reason());
    return false;
  }
  img.path = path;
  img.rgba.assign(px, px + static_cast<size_t>(img.w) * img.h * 4);
  stbi_image_free(px);
  return true;
}

// Non-blank: at least 8 distinct colours and 1% of pixels unlike the first
// (top-left, background) pixel.
bool non_blank(const Image& img) {
  std::set<unsigned> colours;
  size_t differing = 0, n = img.rgba.size() / 4;
  const unsigned char* bg = img.rgba.data();
  for (size_t i = 0; i < n; ++i) {
    const unsigned char* p = &img.rgba[i * 4];
    colours.insert(static_cast<unsigned>(p[0]) << 16 | static_cast<unsigned>(p[1]) << 8 | p[2]);
    if (p[0] != bg[0] || p[1] != bg[1] || p[2] != bg[2]) ++differing;
  }
  if (colours.size() < 8 || differing < n / 100) {
    std::fprintf(stderr, "png_check: %s looks blank (%zu colours, %zu of %zu pixels off background)\n",
                 img.path.c_str(), colours.size(), differing, n);
    return false;
  }
  std::printf("png_check: %s %dx%d, %zu colours, %.1f%% off background\n", img.path.c_str(), img.w, img.h,
              colours.size(), 100.0 * static_cast<double>(differing) / static_cast<double>(n));
  return true;
}

// Different views: at least 1% of pixels differ.
bool differ(const Image& a, const Image& b) {
  if (a.w != b.w || a.h != b.h) return true;
  size_t n = a.rgba.size() / 4, diff = 0;
  for (size_t i = 0; i < n; ++i)
    if (a.rgba[i * 4] != b.rgba[i * 4] || a.rgba[i * 4 + 1] != b.rgba[i * 4 + 1] ||
        a.rgba[i * 4 + 2] != b.rgba[i * 4 + 2])
      ++diff;
  if (diff < n / 100) {
    std::fprintf(stderr, "png_check: %s and %s are (nearly) the same image (%zu pixels differ)\n",
                 a.path.c_str(), b.path.c_str(), diff);
    return false;
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: png_check A.png [B.png ...]\n");
    return 2;
  }
  std::vector<Image> images(static_cast<size_t>(argc - 1));
  for (int i = 1; i < argc; ++i)
    if (!load(argv[i], images[static_cast<size_t>(i - 1)]) || !non_blank(images[static_cast<size_t>(i - 1)]))
      return 1;
  for (size_t i = 0; i < images.size(); ++i)
    for (size_t j = i + 1; j < images.size(); ++j)
      if (!differ(images[i], images[j])) return 1;
  std::printf("png_check: %zu images, all non-blank and pairwise different\n", images.size());
  return 0;
}
