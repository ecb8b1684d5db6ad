select
    orders.id,
    orders.total
from orders
where orders.total > 100
