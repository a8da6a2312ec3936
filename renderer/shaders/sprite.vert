#version 450
// One screen-aligned quad per circle instance, corners from gl_VertexIndex (triangle strip).
// Positions come in framebuffer pixels, origin top-left; Vulkan's NDC has y down, so
// pixel / viewport * 2 - 1 maps straight to clip space.

layout(push_constant) uniform Push {
  vec2 viewport;   // framebuffer size in pixels
  uint gpu_load;   // used by the fragment shader
} pc;

layout(location = 0) in vec3 in_circle;  // x, y, radius (pixels)
layout(location = 1) in uint in_rgba;    // 0xRRGGBBAA

layout(location = 0) out vec2 out_offset;        // pixels from the centre
layout(location = 1) flat out float out_radius;
layout(location = 2) flat out vec4 out_color;

void main() {
  vec2 corner = vec2(float(gl_VertexIndex & 1), float(gl_VertexIndex >> 1)) * 2.0 - 1.0;
  float half_size = abs(in_circle.z) + 1.0;  // one pixel of margin for the antialiased edge (negative: a square)
  out_offset = corner * half_size;
  out_radius = in_circle.z;
  out_color = vec4(float((in_rgba >> 24) & 0xffu), float((in_rgba >> 16) & 0xffu),
                   float((in_rgba >> 8) & 0xffu), float(in_rgba & 0xffu)) / 255.0;
  vec2 pixel = in_circle.xy + out_offset;
  gl_Position = vec4(pixel / pc.viewport * 2.0 - 1.0, 0.0, 1.0);
}
