const std = @import("std");

pub const Price = struct {
    cents: u32,
};

pub const Item = struct {
    name: []const u8,
    price: Price,
    quantity: u32,
};

pub fn count(items: []const Item) u32 {
    var n: u32 = 0;
    for (items) |item| n += item.quantity;
    return n;
}

pub fn total(items: []const Item) u32 {
    var sum: u32 = 0;
    for (items) |item| sum += item.price.cent * item.quantity;
    return sum;
}

const cart = [_]Item{
    .{ .name = "tea", .price = .{ .cents = 350 }, .quantity = 2 },
    .{ .name = "cake", .price = .{ .cents = 420 }, .quantity = 1 },
};

test "counts the quantities" {
    try std.testing.expectEqual(@as(u32, 3), count(&cart));
}

test "totals the prices" {
    try std.testing.expectEqual(@as(u32, 1120), total(&cart));
}
