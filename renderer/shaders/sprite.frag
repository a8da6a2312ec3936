#version 450
// Round edge: coverage falls from 1 to 0 across the pixel at the radius; outside it the
// fragment is discarded (a negative radius: a square, see below). Blending is "over" with the coverage in alpha.

layout(push_constant) uniform Push {
  vec2 viewport;
  uint gpu_load;  // iterations of busy ALU work per fragment (the GPU-load knob)
} pc;

layout(location = 0) in vec2 in_offset;
layout(location = 1) flat in float in_radius;
layout(location = 2) flat in vec4 in_color;

layout(location = 0) out vec4 out_color;

void main() {
  float d = length(in_offset);
  // A negative radius is a square of half side -radius: pixels whose centres lie inside, no
  // antialiasing (crisp overlay text and bars).
  vec2 a = abs(in_offset);
  float coverage = in_radius < 0.0 ? (max(a.x, a.y) < -in_radius ? 1.0 : 0.0)
                                   : clamp(in_radius + 0.5 - d, 0.0, 1.0);
  if (coverage <= 0.0) discard;

  // GPU load: a dependent chain of cheap ALU ops the compiler cannot fold (the count is a
  // push constant). Its result, in [0, 1), is added scaled by 1e-7: far below half an 8-bit
  // step (0.002), so the stored colour does not change, yet the work must be done.
  float x = fract(d * 0.001);
  for (uint i = 0u; i < pc.gpu_load; ++i) x = fract(x * 1.6180339 + 0.3183099);

  out_color = vec4(in_color.rgb + vec3(x * 1e-7), in_color.a * coverage);
}
