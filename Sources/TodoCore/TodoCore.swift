// TodoCore: the todo domain.
