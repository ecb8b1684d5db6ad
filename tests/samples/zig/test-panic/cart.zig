const std = @import("std");

fn third(prices: []const u32) u32 {
    return prices[2];
}

test "third price" {
    const prices = [_]u32{ 120, 80 };
    try std.testing.expectEqual(@as(u32, 80), third(&prices));
}
