// Framebuffer object, pixel read-back and PNG writing (see screenshot.h).
#include "profiler_ui/app/screenshot.h"

#include <GLFW/glfw3.h>
#include <GL/glext.h>
#include <stb_image_write.h>

#include <cstring>
#include <stdexcept>

namespace kiln::inspect::app {
namespace {

// Framebuffer objects are GL 3.0 core but not in GL 1.x's gl.h, so their
// entry points come from the context like ImGui's own loader does it.
struct FboApi {
  PFNGLGENFRAMEBUFFERSPROC gen_framebuffers;
  PFNGLDELETEFRAMEBUFFERSPROC delete_framebuffers;
  PFNGLBINDFRAMEBUFFERPROC bind_framebuffer;
  PFNGLGENRENDERBUFFERSPROC gen_renderbuffers;
  PFNGLDELETERENDERBUFFERSPROC delete_renderbuffers;
  PFNGLBINDRENDERBUFFERPROC bind_renderbuffer;
  PFNGLRENDERBUFFERSTORAGEPROC renderbuffer_storage;
  PFNGLFRAMEBUFFERRENDERBUFFERPROC framebuffer_renderbuffer;
  PFNGLCHECKFRAMEBUFFERSTATUSPROC check_framebuffer_status;
};

template <typename F>
F load(const char* name) {
  auto f = reinterpret_cast<F>(glfwGetProcAddress(name));
  if (!f) throw std::runtime_error(std::string("kiln-inspect: the OpenGL context lacks ") + name +
                                   " (framebuffer objects need OpenGL 3.0)");
  return f;
}

const FboApi& fbo_api() {
  static const FboApi api = {
      load<PFNGLGENFRAMEBUFFERSPROC>("glGenFramebuffers"),
      load<PFNGLDELETEFRAMEBUFFERSPROC>("glDeleteFramebuffers"),
      load<PFNGLBINDFRAMEBUFFERPROC>("glBindFramebuffer"),
      load<PFNGLGENRENDERBUFFERSPROC>("glGenRenderbuffers"),
      load<PFNGLDELETERENDERBUFFERSPROC>("glDeleteRenderbuffers"),
      load<PFNGLBINDRENDERBUFFERPROC>("glBindRenderbuffer"),
      load<PFNGLRENDERBUFFERSTORAGEPROC>("glRenderbufferStorage"),
      load<PFNGLFRAMEBUFFERRENDERBUFFERPROC>("glFramebufferRenderbuffer"),
      load<PFNGLCHECKFRAMEBUFFERSTATUSPROC>("glCheckFramebufferStatus"),
  };
  return api;
}

}  // namespace

OffscreenTarget::OffscreenTarget(int width, int height) : width_(width), height_(height) {
  const FboApi& gl = fbo_api();
  gl.gen_framebuffers(1, &fbo_);
  gl.bind_framebuffer(GL_FRAMEBUFFER, fbo_);
  gl.gen_renderbuffers(1, &color_);
  gl.bind_renderbuffer(GL_RENDERBUFFER, color_);
  gl.renderbuffer_storage(GL_RENDERBUFFER, GL_RGBA8, width, height);
  gl.framebuffer_renderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, color_);
  GLenum status = gl.check_framebuffer_status(GL_FRAMEBUFFER);
  if (status != GL_FRAMEBUFFER_COMPLETE)
    throw std::runtime_error("kiln-inspect: cannot create a " + std::to_string(width) + "x" +
                             std::to_string(height) + " offscreen framebuffer (status 0x" +
                             std::to_string(status) + "); try a smaller --size");
}

OffscreenTarget::~OffscreenTarget() {
  const FboApi& gl = fbo_api();
  gl.bind_framebuffer(GL_FRAMEBUFFER, 0);
  gl.delete_renderbuffers(1, &color_);
  gl.delete_framebuffers(1, &fbo_);
}

void OffscreenTarget::bind() const { fbo_api().bind_framebuffer(GL_FRAMEBUFFER, fbo_); }

std::vector<uint8_t> OffscreenTarget::read_rgba() const {
  bind();
  glFinish();
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  size_t row = static_cast<size_t>(width_) * 4;
  std::vector<uint8_t> bottom_up(row * static_cast<size_t>(height_));
  glReadPixels(0, 0, width_, height_, GL_RGBA, GL_UNSIGNED_BYTE, bottom_up.data());
  std::vector<uint8_t> top_down(bottom_up.size());
  for (int y = 0; y < height_; ++y)
    std::memcpy(&top_down[static_cast<size_t>(y) * row],
                &bottom_up[static_cast<size_t>(height_ - 1 - y) * row], row);
  return top_down;
}

void write_png(const std::string& path, int width, int height, const std::vector<uint8_t>& rgba) {
  if (!stbi_write_png(path.c_str(), width, height, 4, rgba.data(), width * 4))
    throw std::runtime_error("kiln-inspect: cannot write the screenshot '" + path +
                             "' (does its directory exist and is it writable?)");
}

}  // namespace kiln::inspect::app
