#include <gtest/gtest.h>

#include <cmath>

#include "pacer/interpolation.hpp"

using namespace pacer;

TEST(Interpolation, LerpScalarsAndVectors) {
  EXPECT_DOUBLE_EQ(lerp(10.0, 20.0, 0.2), 12.0);
  EXPECT_FLOAT_EQ(lerp(1.0f, 3.0f, 0.5), 2.0f);
  EXPECT_EQ(lerp(Vec2{0, 10}, Vec2{10, 30}, 0.5), (Vec2{5, 20}));
  EXPECT_EQ(lerp(Vec3{0, 0, 0}, Vec3{4, 8, 12}, 0.25), (Vec3{1, 2, 3}));
}

TEST(Interpolation, PairBlendsPreviousAndCurrent) {
  Interpolated<double> x{15.0};
  x.set(20.0);
  EXPECT_DOUBLE_EQ(x.at(0.2), 16.0);  // the worked timeline: 20% from 15 to 20
  EXPECT_DOUBLE_EQ(x.at(1.0), 20.0);
  x.reset(100.0);
  EXPECT_DOUBLE_EQ(x.at(0.5), 100.0) << "a teleport does not blend";
}

TEST(Interpolation, SlerpKeepsUnitLengthAndConstantAngularSpeed) {
  const Quat a{1, 0, 0, 0};
  const double half = std::acos(-1.0) / 4;  // 90 degrees about z
  const Quat b{std::cos(half), 0, 0, std::sin(half)};
  const Quat m = slerp(a, b, 0.5);
  EXPECT_NEAR(std::sqrt(dot(m, m)), 1.0, 1e-12);
  EXPECT_NEAR(m.w, std::cos(half / 2), 1e-12);  // 45 degrees
  EXPECT_NEAR(m.z, std::sin(half / 2), 1e-12);
  const Quat q = slerp(a, b, 0.25);
  EXPECT_NEAR(q.z, std::sin(half / 4), 1e-12);  // a quarter of the angle at a quarter of the time
}

TEST(Interpolation, SlerpAndNlerpTakeTheShorterArc) {
  const Quat a{1, 0, 0, 0};
  const Quat b{-1, 0, 0, 0};  // the same rotation as a
  const Quat s = slerp(a, b, 0.5), n = nlerp(a, b, 0.5);
  EXPECT_NEAR(std::abs(s.w), 1.0, 1e-12);
  EXPECT_NEAR(std::abs(n.w), 1.0, 1e-12);
}

TEST(Interpolation, ExtrapolationPredictsAlongTheVelocity) {
  EXPECT_EQ(extrapolate(Vec2{1, 1}, Vec2{10, -10}, 0.5), (Vec2{6, -4}));
}
