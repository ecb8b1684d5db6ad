export class Cart {
    private items: Array<number> = []
    add(price: number) {
        var total = 0;
        if (price == 0) { return }
        this.items.push(price);
        console.log("added", price);
        return total
    }
}
