import { CATEGORIES, type Category } from '@billfold/contract/categories';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';

/** The entity category, from the contract's list (Uncategorized first, then alphabetical; docs/product.md, Entity). */
export function CategorySelect({
  value,
  onChange,
  disabled,
}: {
  value: Category;
  onChange: (category: Category) => void;
  disabled?: boolean;
}) {
  return (
    <TextField
      select
      label="Category"
      name="category"
      value={value}
      onChange={(event) => onChange(event.target.value as Category)}
      disabled={disabled ?? false}
      fullWidth
    >
      {CATEGORIES.map((category) => (
        <MenuItem key={category} value={category}>
          {category}
        </MenuItem>
      ))}
    </TextField>
  );
}
