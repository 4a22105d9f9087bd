// The demo bookshop's catalogue (a static site: search and detail pages read the URL).
window.CATALOG = [
  { id: 'pragprog', title: 'The Pragmatic Programmer', author: 'David Thomas, Andrew Hunt', prices: { paperback: 39.95, hardcover: 54.5, ebook: 25 } },
  { id: 'sicp', title: 'Structure and Interpretation of Computer Programs', author: 'Harold Abelson, Gerald Jay Sussman', prices: { paperback: 45, hardcover: 65, ebook: 30 } },
  { id: 'clean-code', title: 'Clean Code', author: 'Robert C. Martin', prices: { paperback: 37.99, hardcover: 49.99, ebook: 22.99 } },
  { id: 'taocp', title: 'The Art of Computer Programming, Vol. 1', author: 'Donald Knuth', prices: { paperback: 69.99, hardcover: 89.99, ebook: 59.99 } },
  { id: 'ddia', title: 'Designing Data-Intensive Applications', author: 'Martin Kleppmann', prices: { paperback: 44.99, hardcover: 59.99, ebook: 35.99 } },
  { id: 'refactoring', title: 'Refactoring', author: 'Martin Fowler', prices: { paperback: 47.99, hardcover: 57.99, ebook: 31.99 } },
  { id: 'code-complete', title: 'Code Complete', author: 'Steve McConnell', prices: { paperback: 42.5, hardcover: 55, ebook: 28 } },
  { id: 'mythical', title: 'The Mythical Man-Month', author: 'Frederick P. Brooks Jr.', prices: { paperback: 29.99, hardcover: 39.99, ebook: 19.99 } },
];
window.money = (n) => '$' + n.toFixed(2);
