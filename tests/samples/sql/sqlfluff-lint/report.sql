select id, Name , total
FROM orders o
JOIN customers c on o.customer_id = c.id
where total > 100
