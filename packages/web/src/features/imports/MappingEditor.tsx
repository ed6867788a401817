import {
  type ColumnMapping,
  DATE_FORMATS,
  type DateFormat,
  IMPORT_FIELD_LABELS,
  IMPORT_FIELDS,
  type ImportField,
} from '@billfold/contract/imports';
import Grid from '@mui/material/Grid';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';

interface Props {
  headers: readonly string[];
  mapping: ColumnMapping;
  disabled: boolean;
  onChange: (mapping: ColumnMapping) => void;
}

const NONE = '';

/** One select per field: which column of the file feeds it (or none), and the date format. */
export function MappingEditor({ headers, mapping, disabled, onChange }: Props) {
  const column = (field: ImportField) => (
    <Grid key={field} size={{ xs: 12, sm: 6, md: 4 }}>
      <TextField
        select
        fullWidth
        size="small"
        label={IMPORT_FIELD_LABELS[field]}
        value={mapping[field] === null ? NONE : String(mapping[field])}
        disabled={disabled}
        onChange={(event) =>
          onChange({ ...mapping, [field]: event.target.value === NONE ? null : Number(event.target.value) })
        }
      >
        <MenuItem value={NONE}>
          <em>Not in the file</em>
        </MenuItem>
        {headers.map((header, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: columns are identified by position; names may repeat
          <MenuItem key={index} value={String(index)}>
            {header || `Column ${index + 1}`}
          </MenuItem>
        ))}
      </TextField>
    </Grid>
  );
  return (
    <Grid container spacing={2}>
      {IMPORT_FIELDS.map(column)}
      <Grid size={{ xs: 12, sm: 6, md: 4 }}>
        <TextField
          select
          fullWidth
          size="small"
          label="Date format"
          value={mapping.dateFormat ?? NONE}
          disabled={disabled}
          onChange={(event) =>
            onChange({
              ...mapping,
              dateFormat: event.target.value === NONE ? null : (event.target.value as DateFormat),
            })
          }
        >
          <MenuItem value={NONE}>
            <em>Detect</em>
          </MenuItem>
          {DATE_FORMATS.map((format) => (
            <MenuItem key={format} value={format}>
              {format}
            </MenuItem>
          ))}
        </TextField>
      </Grid>
    </Grid>
  );
}
