import { type CategoryFlow, type CategoryItem, categoryKey, DEFAULT_CATEGORY } from '@billfold/contract/categories';
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { useMemo } from 'react';
import { BUILT_IN_ITEMS, useCategories } from '../api/categories/list-categories.ts';

/**
 * What a picker offers (docs/decisions/0105-categories-of-your-own.md): Uncategorized first, then every category
 * that is not retired in the list's order (built-in and the user's own together, alphabetically), and the current
 * value even when it is retired or unknown, so an entity keeps what it has.
 */
export function pickerChoices(items: readonly CategoryItem[], value: string): CategoryItem[] {
  const choices = items.filter((c) => !c.retired || c.name === value);
  if (!choices.some((c) => c.name === value)) {
    const current = items.find((c) => categoryKey(c.name) === categoryKey(value));
    choices.push(current ?? { id: null, name: value, builtIn: false, flow: null, retired: false, entities: 0 });
  }
  return choices;
}

/** The categories as loaded, or the built-in ones until then (and when the list failed to load). */
export function useCategoryItems(): readonly CategoryItem[] {
  return useCategories().data ?? BUILT_IN_ITEMS;
}

/**
 * The choices of a category filter: Uncategorized first, then alphabetical (docs/product.md, Filters), the user's
 * own among the built-in ones; retired ones too, since entities keep them. A chosen value stays visible even if
 * that category is gone.
 */
export function useCategoryFilterOptions(chosen: readonly string[]): { value: string; label: string }[] {
  const categories = useCategoryItems();
  return useMemo(() => {
    const options = categories.map((c) => ({ value: c.name, label: c.retired ? `${c.name} (retired)` : c.name }));
    for (const name of chosen) if (!options.some((o) => o.value === name)) options.push({ value: name, label: name });
    return options;
  }, [categories, chosen]);
}

/** The flow of a category of the user's own, by name: what a new invoice of its entity starts with. */
export function useCategoryFlow(): (name: string) => CategoryFlow | null {
  const items = useCategoryItems();
  return useMemo(() => {
    const flows = new Map(items.map((c) => [categoryKey(c.name), c.flow]));
    return (name: string) => flows.get(categoryKey(name)) ?? null;
  }, [items]);
}

/** The entity category: built-in and the user's own (Uncategorized first; docs/product.md, Entity). */
export function CategorySelect({
  value,
  onChange,
  disabled,
}: {
  value: string;
  onChange: (category: string) => void;
  disabled?: boolean;
}) {
  const items = useCategoryItems();
  const choices = useMemo(() => pickerChoices(items, value || DEFAULT_CATEGORY), [items, value]);
  return (
    <TextField
      select
      label="Category"
      name="category"
      value={value || DEFAULT_CATEGORY}
      onChange={(event) => onChange(event.target.value)}
      disabled={disabled ?? false}
      fullWidth
      slotProps={{ select: { renderValue: (selected) => String(selected) } }}
    >
      {choices.map((category) => (
        <MenuItem key={category.name} value={category.name}>
          <ListItemText
            primary={category.name}
            secondary={category.retired ? 'Retired' : category.flow === 'income' ? 'Income' : null}
            slotProps={{ secondary: { variant: 'caption' } }}
            sx={{ my: 0 }}
          />
        </MenuItem>
      ))}
    </TextField>
  );
}
