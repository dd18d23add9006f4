-- One name per entrypoint: a call of a contract whose parameter is not an `or` was stored as `@entrypoint_0`
-- (the reference's numbering) while the contract's entrypoint list says `default`; the indexer now stores
-- `default` (michelson resolveEntrypoint). Rows indexed before are renamed so that filters, the operations
-- tab, 'Latest call' and repeats see one name. (Unnamed leaves of an `or` cannot be renumbered in SQL:
-- the API also matches their old `@entrypoint_<k>` name, michelson storedEntrypointNames.)
UPDATE operations o
SET entrypoint = 'default'
FROM contracts c
JOIN scripts s ON s.id = c.script_id
WHERE o.entrypoint = '@entrypoint_0'
  AND o.network = c.network
  AND o.destination = c.address
  AND s.parameter ->> 'prim' IS DISTINCT FROM 'or';
