// One of the groups of `npm test` (test/grouping.js).
require('../grouping.js').runGroup(__filename);
