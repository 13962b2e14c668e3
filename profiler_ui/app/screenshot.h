// Offscreen rendering for `--screenshot` and `--bench-frames`: a framebuffer
// object the size of the requested image (a hidden window's own framebuffer
// is not guaranteed to keep its pixels), read back with glReadPixels and
// written as a PNG with stb_image_write.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace kiln::inspect::app {

class OffscreenTarget {
 public:
  // Needs a current OpenGL 3 context (GLFW's). Throws std::runtime_error.
  OffscreenTarget(int width, int height);
  ~OffscreenTarget();
  OffscreenTarget(const OffscreenTarget&) = delete;
  OffscreenTarget& operator=(const OffscreenTarget&) = delete;

  void bind() const;  // draw into the target from now on
  // RGBA pixels, top row first (glReadPixels returns the bottom row first).
  std::vector<uint8_t> read_rgba() const;
  int width() const { return width_; }
  int height() const { return height_; }

 private:
  int width_, height_;
  unsigned fbo_ = 0, color_ = 0;
};

// Writes RGBA pixels (top row first) as a PNG. Throws std::runtime_error.
void write_png(const std::string& path, int width, int height, const std::vector<uint8_t>& rgba);

}  // namespace kiln::inspect::app
