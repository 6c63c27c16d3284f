// Owns the word lists the demo seed draws from: people's names, mail domains and post wording.
// About a third of the names contain "an", so `search[name]=an` finds many users but not all.

export const FIRST_NAMES: readonly string[] = [
  'Anna', 'Daniel', 'Brandon', 'Susan', 'Jordan', 'Ryan', 'Megan', 'Nathan', 'Diana', 'Ethan',
  'Hannah', 'Ian', 'Juan', 'Morgan', 'Logan', 'Angela', 'Frank', 'Stanley', 'Andrea', 'Joan',
  'Emma', 'Olivia', 'Liam', 'Noah', 'Sophia', 'Mia', 'James', 'Lucas', 'Chloe', 'Grace',
  'Oliver', 'Emily', 'Michael', 'Sarah', 'David', 'Laura', 'Peter', 'Zoë', 'Chloé', 'José',
  'Lucía', 'Björn', 'Søren', 'Priya', 'Wei', 'Yuki', 'Kofi', 'Amara', 'Omar', 'Fatima',
  'Mohammed', 'Aisha', 'Mateo', 'Valentina', 'Luca', 'Sofia', 'Elif', 'Mehmet', 'Olga', 'Igor',
  'Kenji', 'Hiroshi', 'Carlos', 'Isabel', 'Rosa', 'Tom', 'Kim', 'Joe', 'Mike', 'Beth',
  'Ruth', 'Paul', 'Chris', 'Kate', 'Lucy', 'Owen', 'Leo', 'Max', 'Nora', 'Iris',
  'Felix', 'Hugo', 'Ivy', 'Jade', 'Marek', 'Ingrid', 'Thiago', 'Aditi', 'Siobhán', 'Chidi',
];

export const LAST_NAMES: readonly string[] = [
  'Hansen', 'Jordan', 'Morgan', 'Sullivan', 'Fernández', 'Hernandez', 'Tanaka', 'Chan', 'Khan',
  'Evans', 'Grant', 'Santos', 'Brennan', 'Fontaine', 'Romano', 'Ivanov', 'Sanders', 'Barnes',
  'Smith', 'Brown', 'Wilson', 'Taylor', 'Lee', 'Müller', 'Rossi', 'Kowalski', 'Dubois',
  'Garcia', 'Lopez', 'Okafor', 'Kim', 'Park', 'Li', 'Wu', 'Silva', 'Costa', 'Novak', 'Berg',
  'Schmidt', 'Weber', 'Fischer', 'Becker', "O'Brien", "O'Connor", 'Murphy', 'Kelly', 'Walsh',
  'Byrne', 'Price', 'Cooper', 'Ward', 'Wood', 'Hughes', 'Scott', 'Young', 'Hill', 'Moore',
  'White', 'Clark', 'Lewis', 'Hall', 'Allen', 'Wright', 'King', 'Baker', 'Nelson', 'Carter',
  'Mitchell', 'Perez', 'Roberts', 'Turner', 'Phillips', 'Parker', 'Edwards', 'Collins',
  'Stewart', 'Morris', 'Reed', 'Cook', 'Bell', 'Bailey', 'Rivera', 'Cox', 'Torres', 'Gray',
  'Watson', 'Brooks', 'Ross', 'Perry', 'Powell', 'Flores', 'Nakamura', 'Petrov', 'Haddad',
];

export const MAIL_DOMAINS: readonly string[] = ['example.com', 'example.org', 'mail.example.net'];

export const TITLE_TOPICS: readonly string[] = [
  'PostgreSQL indexes', 'query strings', 'pagination', 'TypeScript generics', 'Koa middleware',
  'remote work', 'sourdough bread', 'trail running', 'home espresso', 'garden tomatoes',
  'urban cycling', 'API design', 'error messages', 'time zones', 'unit tests',
  'code review', 'night photography', 'budget travel', 'board games', 'climbing gear',
  'vinyl records', 'houseplants', 'chess openings', 'open source', 'accessibility',
];

export const TITLE_PATTERNS: readonly string[] = [
  'Getting started with {t}', 'Notes on {t}', 'The case for {t}', 'A week of {t}',
  'Ten lessons from {t}', 'What I got wrong about {t}', '{T}: a field guide',
  'Rethinking {t}', 'The quiet joy of {t}', '{T} in practice', 'Questions about {t}',
  'A beginner looks at {t}',
];

export const BODY_SENTENCES: readonly string[] = [
  'This started as a note to myself and grew from there.',
  'Most of the advice out there is fine, but the details matter.',
  'I tried three approaches before one of them stuck.',
  'The short version: measure first, then change one thing at a time.',
  'Thanks to everyone who sent corrections on the first draft.',
  'Your mileage may vary, and that is the point.',
  'Here is what worked, what did not, and what I would do next time.',
  'It took longer than planned, as these things do.',
];

export const ROLE_DESCRIPTIONS: Readonly<Record<string, string>> = {
  admin: 'Full access to every collection and setting',
  editor: 'Reviews, edits and publishes posts',
  writer: 'Writes and edits their own posts',
  guest: 'Reads published posts',
  moderator: 'Handles reports and bans',
};
