#version 450
// own_renderer: the game's own vertex format: a position in framebuffer pixels (origin
// top-left) and an RGBA8 colour.
layout(location = 0) in vec2 in_position;
layout(location = 1) in vec4 in_color;
layout(push_constant) uniform Push {
  vec2 framebuffer;  // size in pixels
} push;
layout(location = 0) out vec4 color;

void main() {
  gl_Position = vec4(in_position / push.framebuffer * 2.0 - 1.0, 0.0, 1.0);
  color = in_color;
}
