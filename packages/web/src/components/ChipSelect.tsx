import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import FormControl from '@mui/material/FormControl';
import InputLabel from '@mui/material/InputLabel';
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import OutlinedInput from '@mui/material/OutlinedInput';
import Select from '@mui/material/Select';
import { useId } from 'react';

export interface ChipSelectProps {
  label: string;
  options: readonly { value: string; label: string }[];
  value: readonly string[];
  onChange: (value: string[]) => void;
  disabled?: boolean;
}

/** A multi-select shown as chips (at most 150px wide; docs/product.md, Timings and limits), each with a delete action. */
export function ChipSelect({ label, options, value, onChange, disabled }: ChipSelectProps) {
  const labelId = useId();
  const labelOf = (item: string) => options.find((option) => option.value === item)?.label ?? item;
  return (
    <FormControl size="small" sx={{ width: 200 }} disabled={disabled}>
      <InputLabel id={labelId}>{label}</InputLabel>
      <Select<string[]>
        labelId={labelId}
        multiple
        value={[...value]}
        onChange={(event) => {
          const next = event.target.value;
          onChange(typeof next === 'string' ? next.split(',') : next);
        }}
        input={<OutlinedInput label={label} />}
        renderValue={(selected) => (
          <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }}>
            {selected.map((item) => (
              <Chip
                key={item}
                size="small"
                label={labelOf(item)}
                title={labelOf(item)}
                sx={{ maxWidth: 150 }}
                // The select would open on the press that belongs to the chip's delete icon.
                onMouseDown={(event) => event.stopPropagation()}
                onDelete={() => onChange(value.filter((v) => v !== item))}
              />
            ))}
          </Box>
        )}
        MenuProps={{ slotProps: { paper: { sx: { maxHeight: 360 } } } }}
      >
        {options.map((option) => (
          <MenuItem key={option.value} value={option.value} dense>
            <Checkbox size="small" checked={value.includes(option.value)} sx={{ p: 0.5, mr: 1 }} />
            <ListItemText primary={option.label} />
          </MenuItem>
        ))}
      </Select>
    </FormControl>
  );
}
